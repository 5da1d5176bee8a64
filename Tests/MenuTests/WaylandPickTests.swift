// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// `cliptab pick` through the real fuzzel and wofi on a headless sway, driven by `wtype`:
/// what each launcher was given (its arguments and stdin) and the row chosen.
///
/// The whole session runs as the test desktop's user (sway refuses root): the bus, the
/// built cliptabd and cliptab, the launchers and the keyboard.
@Suite(.serialized)
struct WaylandPickTests {
    /// The lines every launcher gets: the bare texts, two-line ones marked, twins included.
    static let lines = "alpha\nbeta two\nmulti ⏎\nmulti ⏎\n"

    /// A sway session with its bus, a cliptabd on it with table "t" (alpha, beta two, and two
    /// rows whose first line is "multi"), and a directory of recording launcher wrappers.
    final class Session {
        let sway: HeadlessCompositor
        let bus: PrivateBus
        let daemon: ChildProcess
        let bin: String

        init() throws {
            sway = try HeadlessCompositor(.sway())
            bus = try sway.startBus()
            daemon = try sway.spawn(
                BuiltProducts.path(of: "cliptabd"), environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address],
                stdout: .null, stderr: .null)
            bin = sway.homeDirectory + "/bin"
            _ = try sway.run("mkdir", ["-p", bin])
            let deadline = MonotonicClock.milliseconds() + 20_000
            while try cliptab(["create", "t"]).termination != .exited(0) {
                guard MonotonicClock.milliseconds() < deadline else {
                    throw FixtureError("cliptabd did not answer on the session's bus")
                }
                usleep(20_000)
            }
            for text in ["alpha", "beta two", "multi\nline", "multi\nother"] {
                let added = try cliptab(["add", "t", text])
                guard added.termination == .exited(0) else { throw FixtureError("add: \(added.errorText)") }
            }
        }

        deinit { daemon.terminate(graceMilliseconds: 2000) }

        /// Runs the built cliptab in the session.
        func cliptab(_ arguments: [String]) throws -> CommandResult {
            try sway.run(
                BuiltProducts.path(of: "cliptab"), arguments,
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        }

        /// Installs a wrapper named `program` that records its arguments and stdin, then runs
        /// the real one; returns the files it records into.
        func wrap(_ program: String) throws -> (arguments: String, input: String) {
            let real = try sway.run("sh", ["-c", "command -v \(program)"]).outputText.trimmingCharacters(
                in: .whitespacesAndNewlines)
            guard real.hasPrefix("/") else { throw FixtureError("\(program) is not installed") }
            let recorded = (arguments: "\(bin)/\(program).args", input: "\(bin)/\(program).in")
            let body =
                "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(recorded.arguments)\n"
                + "tee \(recorded.input) | \(real) \"$@\" 2> \(bin)/\(program).err\n"
            let result = try sway.run(
                "sh", ["-c", "cat > \(bin)/\(program) && chmod 755 \(bin)/\(program)"],
                input: Array(body.utf8))
            guard result.termination == .exited(0) else { throw FixtureError("wrapper: \(result.errorText)") }
            return recorded
        }

        /// The output as grim captures it, to see when a launcher has painted its window.
        func screen() throws -> [UInt8] {
            let shot = try sway.run("grim", ["-t", "ppm", "-"])
            guard shot.termination == .exited(0) else { throw FixtureError("grim: \(shot.errorText)") }
            return shot.standardOutput
        }

        /// Runs `cliptab pick t --launcher LAUNCHER --action print`, waits until the launcher
        /// has painted (the screen changed), types `filter`, then `keys`; the pick's exit
        /// status and output.
        func pick(_ launcher: String, filter: String, keys: [String]) throws -> (Termination?, String) {
            let empty = try screen()
            var environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
            environment["PATH"] = bin + ":" + (sway.environment()["PATH"] ?? "/usr/bin:/bin")
            let pick = try sway.spawn(
                BuiltProducts.path(of: "cliptab"),
                ["pick", "t", "--launcher", launcher, "--action", "print"],
                environment: environment)
            let deadline = MonotonicClock.milliseconds() + 20_000
            while try screen() == empty {
                guard MonotonicClock.milliseconds() < deadline, pick.isRunning else {
                    pick.terminate(graceMilliseconds: 1000)
                    throw FixtureError("\(launcher) painted nothing in 20 s (or the pick ended)")
                }
                usleep(20_000)
            }
            // One virtual keyboard for all the keys: a launcher closes when its keyboard goes
            // (focus lost). The pauses let it bind the new keyboard, then filter the list.
            let typed = try sway.run(
                "wtype", ["-s", "300", filter, "-s", "200"] + keys.flatMap { ["-k", $0] })
            guard typed.termination == .exited(0) else { throw FixtureError("wtype: \(typed.errorText)") }
            let ended = pick.waitForExit(timeoutMilliseconds: 20_000)
            if ended == nil { pick.terminate(graceMilliseconds: 1000) }
            var output: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(pick.standardOutput, &chunk, chunk.count)
                if count <= 0 { break }
                output += chunk[..<count]
            }
            return (ended, String(decoding: output, as: UTF8.self))
        }

        /// A file the session wrote.
        func contents(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    }

    /// fuzzel: given the bare lines and `--dmenu --index`, typed into; its index maps to the
    /// second of two rows that look the same.
    @Test func throughFuzzel() throws {
        let session = try Session()
        let recorded = try session.wrap("fuzzel")
        let (status, output) = try session.pick("fuzzel", filter: "multi", keys: ["Down", "Return"])
        #expect(
            status == .exited(0) && output == "multi\nother",
            "\(status.map { "\($0)" } ?? "running"): \(session.contents(session.bin + "/fuzzel.err").suffix(1500))"
        )
        #expect(session.contents(recorded.input) == Self.lines)
        #expect(session.contents(recorded.arguments) == "--dmenu\n--index\n-p\nt> \n")
    }

    /// wofi: given the bare lines and `dmenu-print_line_num`, typed into; its line number
    /// maps to the row.
    @Test func throughWofi() throws {
        let session = try Session()
        let recorded = try session.wrap("wofi")
        let (status, output) = try session.pick("wofi", filter: "beta", keys: ["Return"])
        #expect(
            status == .exited(0) && output == "beta two",
            "\(status.map { "\($0)" } ?? "running"): \(session.contents(session.bin + "/wofi.err").suffix(1500))"
        )
        #expect(session.contents(recorded.input) == Self.lines)
        #expect(session.contents(recorded.arguments) == "--dmenu\n-D\ndmenu-print_line_num=true\n-p\nt\n")
    }
}
