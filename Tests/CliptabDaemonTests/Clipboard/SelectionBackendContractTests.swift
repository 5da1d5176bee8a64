// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import Glibc
import Posix
import TestSupport
import Testing

/// What every `SelectionBackend` promises the service, checked against the X11 backend on
/// Xvfb, the Wayland backend on a headless sway and the in-memory twin the policy's unit
/// tests use: real readers (xclip, wl-paste) read what the real backends own, while the test
/// drives each backend as the daemon's loop does.
@Suite(.serialized)
struct SelectionBackendContractTests {
    /// The backends under the contract.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case x11, wayland, inMemory

        var testDescription: String { rawValue }
    }

    /// A backend, the desktop it serves and the programs on the other side.
    final class Desk {
        let kind: Kind
        let backend: SelectionBackend
        /// Every event the backend reported, oldest first.
        private(set) var events: [SelectionEvent] = []
        private var display: VirtualDisplay?
        private var sway: HeadlessCompositor?
        private var others: [ChildProcess] = []

        init(_ kind: Kind) throws {
            self.kind = kind
            switch kind {
            case .x11:
                let display = try VirtualDisplay()
                self.display = display
                backend = X11SelectionBackend(
                    display: display.display, settings: ClipboardSettings(),
                    clock: MonotonicClock.milliseconds)
            case .wayland:
                let sway = try HeadlessCompositor(.sway())
                self.sway = sway
                backend = WaylandSelectionBackend(
                    display: sway.socketPath, settings: ClipboardSettings(), keyboards: nil,
                    clock: MonotonicClock.milliseconds)
            case .inMemory:
                backend = RecordingBackend()
            }
        }

        deinit { for other in others { other.terminate(graceMilliseconds: 1000) } }

        /// The twin, for the steps a test plays on it instead of a real program.
        private var twin: RecordingBackend? { backend as? RecordingBackend }

        /// One turn of the daemon's loop: the backend handles what is pending, then a poll of
        /// its descriptor and `extra` (at most `milliseconds`); returns `extra` with revents.
        @discardableResult
        func turn(extra: [pollfd] = [], milliseconds: Int = 50) -> [pollfd] {
            events += backend.process(now: MonotonicClock.milliseconds())
            var fds = extra
            if let fd = backend.pollDescriptor {
                fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
            }
            var timeout = milliseconds
            if let deadline = backend.nextDeadline() {
                let now = MonotonicClock.milliseconds()
                timeout = min(timeout, deadline > now ? Int(deadline - now) : 0)
            }
            _ = poll(&fds, nfds_t(fds.count), Int32(timeout))
            return Array(fds.prefix(extra.count))
        }

        /// Turns the loop until `condition` holds or the hang guard's `milliseconds` pass.
        func pump(milliseconds: UInt64 = 30_000, until condition: () -> Bool) -> Bool {
            let deadline = MonotonicClock.milliseconds() + milliseconds
            while !condition() && MonotonicClock.milliseconds() < deadline { turn() }
            return condition()
        }

        /// What a reader gets from `selection` (as `type` when given: the text otherwise), or
        /// nil when nothing is offered; the loop turns while it reads.
        func read(_ selection: ClipboardSelection, type: String? = nil) throws -> [UInt8]? {
            let primary = selection == .primary
            let child: ChildProcess
            switch kind {
            case .inMemory:
                return readTwin(selection, type: type)
            case .x11:
                let arguments =
                    ["-o", "-selection", primary ? "primary" : "clipboard"] + (type.map { ["-t", $0] } ?? [])
                child = try ChildProcess.spawn(
                    "xclip", arguments, environment: ["PATH": "/usr/bin:/bin", "DISPLAY": display!.display])
            case .wayland:
                let arguments = ["-n"] + (primary ? ["--primary"] : []) + (type.map { ["-t", $0] } ?? [])
                child = try sway!.spawn("wl-paste", arguments)
            }
            var output: [UInt8] = []
            let deadline = MonotonicClock.milliseconds() + 60_000
            while child.standardOutput >= 0 || child.standardError >= 0,
                MonotonicClock.milliseconds() < deadline
            {
                let streams = [child.standardOutput, child.standardError].filter { $0 >= 0 }
                for entry in turn(extra: streams.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) })
                where entry.revents != 0 {
                    var buffer = [UInt8](repeating: 0, count: 1 << 16)
                    let count = Glibc.read(entry.fd, &buffer, buffer.count)
                    if count > 0 {
                        if entry.fd == child.standardOutput { output += buffer.prefix(count) }
                    } else if entry.fd == child.standardOutput {
                        child.closeStandardOutput()
                    } else {
                        child.closeStandardError()
                    }
                }
            }
            // The reader's own end may come in after its streams closed; the loop keeps turning.
            var termination: Termination?
            _ = pump {
                termination = child.exitStatusIfEnded(); return termination != nil
            }
            return termination == .exited(0) ? output : nil
        }

        /// The twin's own reader: its `readText`, then the read reported as a program's.
        private func readTwin(_ selection: ClipboardSelection, type: String?) -> [UInt8]? {
            var result: Result<ClipboardText, CliptabError>?
            backend.readText(selection) { result = $0 }
            guard case .success(let text)? = result else { return nil }
            twin!.read(by: 1, selection: selection, delivered: type == nil)
            guard type == nil else { return text.isMarkedSecret ? Array("secret".utf8) : nil }
            return Array(text.text.utf8)
        }

        /// Another program takes `selection` with `text`.
        func takeOver(_ selection: ClipboardSelection, with text: String) throws {
            switch kind {
            case .inMemory: twin!.takenByAnotherProgram(offering: text, selection: selection)
            case .wayland: try sway!.copy(Array(text.utf8), primary: selection == .primary)
            case .x11:
                let other = try ChildProcess.spawn(
                    "xclip", ["-quiet", "-i", "-selection", selection == .primary ? "primary" : "clipboard"],
                    environment: ["PATH": "/usr/bin:/bin", "DISPLAY": display!.display], stdin: .pipe)
                others.append(other)
                try other.write(Array(text.utf8))
                other.closeStandardInput()
            }
        }

        /// The display or compositor goes away.
        func goAway() {
            switch kind {
            case .inMemory: twin!.connectionLost(retryAt: MonotonicClock.milliseconds() + 5000)
            case .wayland: sway!.stop()
            case .x11: display!.killKeepingNumber()
            }
        }
    }

    static let text = "Grüße, 世界\n\ttabs and  spaces \n"

    /// A text owned is served whole to a reader, and the read is reported for its stamp.
    @Test(arguments: Kind.allCases) func ownAndServe(_ kind: Kind) throws {
        let desk = try Desk(kind)
        let stamp = try desk.backend.own(.clipboard, .text(Self.text), secret: false, replacing: nil)
        #expect(desk.backend.currentStamp(.clipboard) == stamp)
        #expect(try desk.read(.clipboard) == Array(Self.text.utf8))
        #expect(
            desk.pump {
                desk.events.contains {
                    if case .served(.clipboard, stamp, reader: _, textDelivered: true, origin: _) = $0 {
                        true
                    } else {
                        false
                    }
                }
            }, "\(desk.events)")
        // A second ownership is another stamp, even for the same text.
        let again = try desk.backend.own(.clipboard, .text(Self.text), secret: false, replacing: stamp)
        #expect(again != stamp)
        #expect(desk.backend.currentStamp(.clipboard) == again)
    }

    /// 10 MiB reach a reader whole.
    @Test(arguments: Kind.allCases) func tenMebibytes(_ kind: Kind) throws {
        let desk = try Desk(kind)
        let line = String(repeating: "0123456789abcdef", count: 4) + "\n"
        let text = String(repeating: line, count: (10 << 20) / line.utf8.count)
        _ = try desk.backend.own(.clipboard, .text(text), secret: false, replacing: nil)
        let read = try desk.read(.clipboard) ?? []
        let whole = read == Array(text.utf8)
        #expect(whole, "read \(read.count) of \(text.utf8.count) bytes")
    }

    /// PRIMARY is declared, owned and served apart from the clipboard.
    @Test(arguments: Kind.allCases) func primary(_ kind: Kind) throws {
        let desk = try Desk(kind)
        #expect(desk.backend.capabilities.primary)
        _ = try desk.backend.own(.clipboard, .text("clipboard"), secret: false, replacing: nil)
        let stamp = try desk.backend.own(.primary, .text("primary"), secret: false, replacing: nil)
        #expect(desk.backend.currentStamp(.primary) == stamp)
        #expect(try desk.read(.primary) == Array("primary".utf8))
        #expect(try desk.read(.clipboard) == Array("clipboard".utf8))
    }

    /// A secret is offered with the password-manager hint `secret`; its clear (the release
    /// of its stamp) leaves nothing on the clipboard, while a plain text carries no hint.
    @Test(arguments: Kind.allCases) func secretHintAndClear(_ kind: Kind) throws {
        let desk = try Desk(kind)
        let hint = "x-kde-passwordManagerHint"
        let plain = try desk.backend.own(.clipboard, .text("plain"), secret: false, replacing: nil)
        #expect(try desk.read(.clipboard, type: hint) == nil)
        let stamp = try desk.backend.own(.clipboard, .text("hunter2"), secret: true, replacing: plain)
        #expect(try desk.read(.clipboard, type: hint) == Array("secret".utf8))
        #expect(try desk.read(.clipboard) == Array("hunter2".utf8))
        desk.backend.release(.clipboard, stamp)
        #expect(desk.backend.currentStamp(.clipboard) == nil)
        #expect(try desk.read(.clipboard) == nil)
    }

    /// Another program taking the clipboard ends our ownership, reported with its stamp; a
    /// release or a replacing `own` of that stamp leaves the other program's text.
    @Test(arguments: Kind.allCases) func anotherOwnerTakesOver(_ kind: Kind) throws {
        let desk = try Desk(kind)
        let stamp = try desk.backend.own(.clipboard, .text("ours"), secret: false, replacing: nil)
        let primary = try desk.backend.own(.primary, .text("ours too"), secret: false, replacing: nil)
        try desk.takeOver(.clipboard, with: "theirs")
        #expect(desk.pump { desk.events.contains(.lost(.clipboard, stamp)) }, "\(desk.events)")
        #expect(!desk.events.contains(.lost(.primary, primary)))
        #expect(desk.backend.currentStamp(.clipboard) == nil)
        #expect(desk.backend.currentStamp(.primary) == primary)
        desk.backend.release(.clipboard, stamp)
        #expect(throws: CliptabError.self) {
            try desk.backend.own(.clipboard, .text("back"), secret: false, replacing: stamp)
        }
        #expect(try desk.read(.clipboard) == Array("theirs".utf8))
    }

    /// The display or compositor going away ends every ownership, reported; the backend
    /// polls nothing, schedules its reconnection, and calls meanwhile are `ClipboardUnavailable`.
    @Test(arguments: Kind.allCases) func displayGone(_ kind: Kind) throws {
        let desk = try Desk(kind)
        let clipboard = try desk.backend.own(.clipboard, .text("a"), secret: false, replacing: nil)
        let primary = try desk.backend.own(.primary, .text("b"), secret: false, replacing: nil)
        let before = MonotonicClock.milliseconds()
        desk.goAway()
        #expect(
            desk.pump {
                desk.events.contains(.lost(.clipboard, clipboard))
                    && desk.events.contains(.lost(.primary, primary))
            }, "\(desk.events)")
        #expect(desk.backend.pollDescriptor == nil)
        #expect(desk.backend.currentStamp(.clipboard) == nil)
        let retry = desk.backend.nextDeadline()
        #expect(retry.map { $0 > before } == true, "next deadline \(String(describing: retry))")
        do {
            _ = try desk.backend.own(.clipboard, .text("c"), secret: false, replacing: nil)
            Issue.record("own succeeded with the display gone")
        } catch let error as CliptabError {
            #expect(error.code == .clipboardUnavailable, "\(error)")
        }
    }
}
