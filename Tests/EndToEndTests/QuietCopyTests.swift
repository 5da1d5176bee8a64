// SPDX-License-Identifier: MIT
import DBus
import Glibc
import Posix
import TestSupport
import Testing

/// What one `cliptab copy -q` of a large row moves over the bus, counted by a monitor of the
/// bus: the call and a reply of a few bytes, never the text, which stays in cliptabd (it cost
/// a copy several times what `xclip -i` of the same bytes costs when it came back).
@Suite(.serialized)
struct QuietCopyTests {
    @Test func aQuietCopyKeepsTheTextOffTheBus() throws {
        let display = try VirtualDisplay()
        let cli = try CLIFixture(display: display.display)
        defer { cli.stop() }
        let row = String(repeating: "0123456789abcdef", count: 1 << 16)
        #expect(try cli.run("create", "big").status == 0)
        #expect(try cli.run("add", "big", "--file", "-", input: row).status == 0)
        let monitor = try BusConnection.connect(address: cli.bus.address)
        let become = try BusMessage.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus.Monitoring", member: "BecomeMonitor")
        try become.append([.array(elementSignature: "s", []), .uint32(0)])
        _ = try monitor.call(become, timeoutMilliseconds: 5000)

        // No runtime directory: the call goes through the bus, where the monitor sees it.
        let copy = try runCliptab(
            ["copy", "-q", "big", "0:0"], environment: cli.environment.filter { $0.key != "XDG_RUNTIME_DIR" })
        #expect(copy == Outcome(0, ""))
        var members: [String] = []
        var carried = 0
        var copyCall: (sender: String, serial: UInt32)?
        var answered = false
        let deadline = MonotonicClock.milliseconds() + 20_000
        while !answered, MonotonicClock.milliseconds() < deadline,
            let message = monitor.readMessage(timeoutMilliseconds: 1000)
        {
            carried += Self.textBytes(try message.readValues())
            if message.type == .methodCall, let member = message.member {
                members.append(member)
                if member.hasPrefix("Copy"), let sender = message.sender {
                    copyCall = (sender, message.serial)
                }
            } else if let copyCall, message.destination == copyCall.sender,
                message.replySerial == copyCall.serial
            {
                answered = true
            }
        }
        #expect(answered, "the monitor saw no answer to a copy; calls seen: \(members)")
        #expect(members.contains("CopyQuiet"), "\(members)")
        #expect(carried < 1024, "\(carried) bytes of text crossed the bus for one copy of \(row.utf8.count)")
        let read = try ChildProcess.run(
            "xclip", ["-selection", "clipboard", "-o"], environment: cli.environment,
            timeoutMilliseconds: 20_000)
        #expect(read.outputText == row)
    }

    /// The bytes of the strings, paths and signatures among `values`, containers included.
    static func textBytes(_ values: [BusValue]) -> Int {
        values.reduce(0) { total, value in
            switch value {
            case .string(let text), .objectPath(let text), .signature(let text):
                return total + text.utf8.count
            case .array(_, let elements), .structure(let elements): return total + textBytes(elements)
            case .dictionary(_, _, let entries): return total + textBytes(entries.flatMap { [$0.0, $0.1] })
            case .variant(let inner): return total + textBytes([inner])
            default: return total
            }
        }
    }
}
