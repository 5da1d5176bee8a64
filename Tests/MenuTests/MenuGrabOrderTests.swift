// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// The popup makes its first frame (fetching the rows it shows) before it grabs the
/// keyboard and pointer: a daemon slow to send the rows never holds the desktop's input.
///
/// A stand-in cliptabd (`held_rows_stand_in.py`, Python and Gio) takes the bus name from the real one; it answers the
/// table's outline at once and holds every request for rows unanswered, noting it in a
/// file. While the popup waits for its rows, another client can grab the input.
@Suite(.serialized)
struct MenuGrabOrderTests {
    /// A `python3` on PATH that has Gio (python3-gi), or nil.
    static let python = TestSupport.python(
        running: "import gi; gi.require_version('Gio', '2.0'); from gi.repository import Gio")

    /// Waits (at most 15 s) until `path` holds a line `line`.
    func waitForLine(_ line: String, in path: String) -> Bool {
        let deadline = MonotonicClock.milliseconds() + 15_000
        while MonotonicClock.milliseconds() < deadline {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if text.split(separator: "\n").contains(Substring(line)) { return true }
            usleep(20_000)
        }
        return false
    }

    @Test func theInputIsFreeWhileTheFirstFrameWaitsForItsRows() throws {
        let python = try #require(Self.python, "python3-gi is not installed")
        let fixture = try MenuFixture()
        fixture.daemon.signal(SIGKILL)
        _ = fixture.daemon.waitForExit(timeoutMilliseconds: 5000)
        let log = fixture.data.appending("stand-in.log")
        let standIn = try ChildProcess.spawn(
            python, ["-c", HelperPrograms.source("held_rows_stand_in.py"), log],
            environment: fixture.environment, stdout: .null,
            stderr: .inherit)
        defer { standIn.terminate() }
        #expect(waitForLine("owned", in: log), "the stand-in did not take the bus name")
        let menu = try ChildProcess.spawn(
            BuiltProducts.path(of: "cliptab"), ["menu", "--timeout", "3", "t"],
            environment: fixture.environment,
            stdout: .null, stderr: .pipe)
        defer { menu.terminate() }
        // The popup asks for the rows of its first frame, and waits.
        #expect(waitForLine("GetRowPreviews", in: log) || waitForLine("GetRows", in: log))
        #expect(menu.isRunning)
        #expect(try fixture.grabIsFree(), "the popup holds the input while it waits for its rows")
        // The call gives up after 3 s; the popup then shows, sees the signal and ends.
        menu.signal(SIGTERM)
        #expect(fixture.exitCode(of: menu) == 143)
        #expect(try fixture.grabIsFree())
    }
}
