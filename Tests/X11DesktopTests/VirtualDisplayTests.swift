// SPDX-License-Identifier: MIT
import Dispatch
import Foundation
import Posix
import Synchronization
import TestSupport
import Testing

/// The X server fixture that the display-loss tests kill and bring back.
@Suite struct VirtualDisplayTests {
    /// A killed server's number stays taken for the servers other suites start meanwhile,
    /// and the same number can be started on again.
    @Test func aKilledDisplayKeepsItsNumberUntilItIsBack() throws {
        let first = try VirtualDisplay()
        let name = first.display
        first.killKeepingNumber()
        let other = try VirtualDisplay()
        #expect(other.display != name, "a new server took the killed one's number \(name)")
        let back = try VirtualDisplay(display: name)
        #expect(back.display == name)
        other.stop()
        back.stop()
    }

    /// A display killed and given back keeps its number while servers of other suites start
    /// all the while (one once took it under load: "Xvfb :0 ended before it reported a
    /// display").
    @Test func aDisplayComesBackOnItsNumberWhileOthersStart() throws {
        var display = try VirtualDisplay()
        let name = display.display
        let stopping = Mutex(false)
        let others = DispatchGroup()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: others) {
                while !stopping.withLock({ $0 }) { (try? VirtualDisplay())?.stop() }
            }
        }
        defer {
            stopping.withLock { $0 = true }
            others.wait()
        }
        for cycle in 0..<20 {
            display.killKeepingNumber()
            display = try VirtualDisplay(display: name)
            #expect(display.display == name, "cycle \(cycle)")
        }
        display.stop()
    }

    /// A window is focused right after its program prints its id, before the window shows
    /// (GTK's form once printed an id that `xdotool windowfocus` refused with BadMatch).
    @Test func aWindowIsFocusedRightAfterItsProgramStarts() throws {
        let tk = try #require(python(running: "import tkinter"), "python3 with tkinter is missing")
        let display = try VirtualDisplay()
        defer { display.stop() }
        for start in 0..<20 {
            let program = try ChildProcess.spawn(
                tk, ["-c", HelperPrograms.source("tk_late_window.py"), "300"],
                environment: display.environment(), stdout: .pipe, stderr: .null)
            defer { program.terminate(graceMilliseconds: 500) }
            let window = try #require(program.readLine(timeoutMilliseconds: 30_000), "start \(start)")
            try display.focus(window)
            let focused = try ChildProcess.run(
                "xdotool", ["getwindowfocus"], environment: display.environment(), timeoutMilliseconds: 30_000
            )
            #expect(
                Int(focused.outputText.trimmingCharacters(in: .whitespacesAndNewlines))
                    == Int(window.dropFirst(2), radix: 16), "start \(start)")
        }
    }
}
