// SPDX-License-Identifier: MIT
import Foundation
import Posix
import TestSupport
import Testing
import X11Desktop

/// Tk's clipboard read (tkinter `clipboard_get`), printing the text as UTF-8.
private let tkReader = """
    import sys, tkinter
    root = tkinter.Tk()
    root.withdraw()
    text = root.clipboard_get(**({'type': sys.argv[1]} if len(sys.argv) > 1 else {}))
    # Tcl may hand characters outside the BMP over as surrogate pairs: rejoin them.
    text = text.encode('utf-16', 'surrogatepass').decode('utf-16')
    sys.stdout.buffer.write(text.encode('utf-8'))
    """

/// GTK 3's clipboard read (`wait_for_text`), printing the text as UTF-8.
private let gtkReader = """
    import sys, gi
    gi.require_version('Gtk', '3.0')
    from gi.repository import Gtk, Gdk
    text = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD).wait_for_text()
    if text is None:
        sys.exit(3)
    sys.stdout.buffer.write(text.encode('utf-8'))
    """

/// `text` with every CR LF replaced by LF.
private func normalizedLineEnds(_ text: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    for (index, byte) in text.enumerated()
    where !(byte == 13 && index + 1 < text.count && text[index + 1] == 10) {
        result.append(byte)
    }
    return result
}

/// GTK 3 asking for one target and decoding the reply by its type, printing UTF-8.
private let gtkTargetReader = HelperPrograms.source("gtk_target_reader.py")

/// The service as owner, read by real X clients.
@Suite(.serialized)
struct ServingTests {
    private static let tkPython = python(running: "import tkinter")
    private static let gtkPython = python(
        running: "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk")

    @Test(arguments: ["ascii", "unicode", "whitespace", "empty", "10MiB"])
    func clientsReadExactlyWhatWasOwned(sample: String) throws {
        let harness = try Harness()
        let text = Sample.named(sample)
        try harness.service.own(.clipboard, text: text, secret: false)

        var readers: [(name: String, command: [String])] = [
            ("xclip", ["xclip", "-selection", "clipboard", "-o"]),
            ("xsel", ["xsel", "-b", "-o"]),
        ]
        if let tk = Self.tkPython { readers.append(("tk", [tk, "-c", tkReader])) }
        if let gtk = Self.gtkPython { readers.append(("gtk", [gtk, "-c", gtkReader])) }
        #expect(Self.tkPython != nil, "python3 with tkinter is missing: Tk was not tested")
        #expect(Self.gtkPython != nil, "python3 with GTK 3 (gir1.2-gtk-3.0) is missing: GTK was not tested")

        for reader in readers {
            let started = MonotonicClock.milliseconds()
            let result = try harness.run(reader.command, timeoutMilliseconds: 60_000)
            let elapsed = MonotonicClock.milliseconds() - started
            #expect(
                result.succeeded,
                "\(reader.name) \(sample): \(String(describing: result.termination)) \(result.errorText)")
            // GTK 3 turns CR LF into LF when it receives text (gtk_selection_data_get_text).
            let expected = reader.name == "gtk" ? normalizedLineEnds(text) : text
            let difference = mismatch(result.output, expected)
            #expect(difference == nil, "\(reader.name) \(sample): \(difference ?? "") (\(elapsed) ms)")
        }
        #expect(harness.service.activeTransferCount == 0)
    }
}

/// Targets other than UTF-8 text, asked for by real clients.
@Suite(.serialized)
struct TargetTests {
    private static let gtkPython = python(
        running: "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk")

    @Test func targetsListsEveryTarget() throws {
        let harness = try Harness()
        try harness.service.own(.clipboard, text: Sample.unicode, secret: false)
        let result = try harness.run(["xclip", "-selection", "clipboard", "-t", "TARGETS", "-o"])
        #expect(result.succeeded)
        let listed = Set(result.outputText.split(separator: "\n").map(String.init))
        let expected: Set = [
            "TARGETS", "TIMESTAMP", "MULTIPLE", "UTF8_STRING", "text/plain;charset=utf-8", "text/plain",
            "STRING", "TEXT", "COMPOUND_TEXT", "SAVE_TARGETS",
        ]
        #expect(listed == expected)
    }

    @Test func timestampIsTheAcquisitionTime() throws {
        let harness = try Harness()
        let acquired = try harness.service.own(.clipboard, text: Sample.ascii, secret: false)
        #expect(acquired != .current)
        #expect(harness.service.acquisitionTime(.clipboard) == acquired)
        let result = try harness.run(["xclip", "-selection", "clipboard", "-t", "TIMESTAMP", "-o"])
        #expect(result.succeeded)
        // xclip prints INTEGER data in decimal.
        #expect(result.outputText == "\(acquired.rawValue)\n")
        // A second copy is a new acquisition with a later time.
        let again = try harness.service.own(.clipboard, text: Sample.unicode, secret: false)
        #expect(again >= acquired)
    }

    @Test func stringIsLatin1WithFallback() throws {
        let harness = try Harness()
        try harness.service.own(.clipboard, text: Array("héllo → 世界 😀".utf8), secret: false)
        let result = try harness.run(["xclip", "-selection", "clipboard", "-t", "STRING", "-o"])
        #expect(result.succeeded)
        let expected: [UInt8] = [0x68, 0xE9, 0x6C, 0x6C, 0x6F, 0x20, 0x3F, 0x20, 0x3F, 0x3F, 0x20, 0x3F]
        #expect(mismatch(result.output, expected) == nil)
    }

    @Test func textIsStringWhenLatin1Suffices() throws {
        let harness = try Harness()
        try harness.service.own(.clipboard, text: Array("héllo".utf8), secret: false)
        let result = try harness.run(["xclip", "-selection", "clipboard", "-t", "TEXT", "-o"])
        #expect(result.succeeded)
        #expect(mismatch(result.output, [0x68, 0xE9, 0x6C, 0x6C, 0x6F]) == nil)
    }

    @Test func compoundTextAndTextDecodeInGTK() throws {
        let harness = try Harness()
        let text = Array("héllo 世界".utf8)
        try harness.service.own(.clipboard, text: text, secret: false)
        let raw = try harness.run(["xclip", "-selection", "clipboard", "-t", "COMPOUND_TEXT", "-o"])
        #expect(raw.succeeded)
        // ISO 2022: Latin-1 as is, the CJK part behind an escape sequence.
        #expect(raw.output.starts(with: [0x68, 0xE9, 0x6C, 0x6C, 0x6F, 0x20, 0x1B]))
        // GTK decodes by the reply's type: COMPOUND_TEXT for both targets here. (Tk is no
        // judge: its iso2022 decoder ignores the `ESC $ ( B` designation compound text uses.)
        let gtk = try #require(Self.gtkPython, "python3 with GTK 3 (gir1.2-gtk-3.0) is missing")
        for target in ["COMPOUND_TEXT", "TEXT"] {
            let decoded = try harness.run([gtk, "-c", gtkTargetReader, target])
            #expect(decoded.succeeded, "\(target): \(decoded.errorText)")
            #expect(mismatch(decoded.output, text) == nil, "\(target)")
        }
    }

    @Test func plainTextIsASCIIWithFallback() throws {
        let harness = try Harness()
        try harness.service.own(.clipboard, text: Array("a→b".utf8), secret: false)
        let plain = try harness.run(["xclip", "-selection", "clipboard", "-t", "text/plain", "-o"])
        #expect(plain.outputText == "a?b")
        let utf8 = try harness.run([
            "xclip", "-selection", "clipboard", "-t", "text/plain;charset=utf-8", "-o",
        ])
        #expect(utf8.outputText == "a→b")
    }

    @Test func unknownTargetIsRefused() throws {
        let harness = try Harness()
        try harness.service.own(.clipboard, text: Sample.ascii, secret: false)
        for target in ["image/png", "x-kde-passwordManagerHint"] {
            let result = try harness.run(["xclip", "-selection", "clipboard", "-t", target, "-o"])
            #expect(!result.succeeded, "\(target)")
            #expect(result.output.isEmpty, "\(target)")
        }
    }

    @Test func secretCopyCarriesThePasswordHint() throws {
        let harness = try Harness()
        try harness.service.own(.clipboard, text: Array("hunter2".utf8), secret: true)
        let targets = try harness.run(["xclip", "-selection", "clipboard", "-t", "TARGETS", "-o"])
        let listed = Set(targets.outputText.split(separator: "\n").map(String.init))
        #expect(listed.contains("x-kde-passwordManagerHint"))
        // A secret is never handed to a clipboard manager.
        #expect(!listed.contains("SAVE_TARGETS"))
        let hint = try harness.run([
            "xclip", "-selection", "clipboard", "-t", "x-kde-passwordManagerHint", "-o",
        ])
        #expect(hint.succeeded)
        #expect(hint.outputText == "secret")
        let text = try harness.run(["xclip", "-selection", "clipboard", "-o"])
        #expect(text.outputText == "hunter2")
    }

    @Test func primaryIsIndependentOfClipboard() throws {
        let harness = try Harness()
        try harness.service.own(.primary, text: Array("primary text".utf8), secret: false)
        try harness.service.own(.clipboard, text: Array("clipboard text".utf8), secret: false)
        let primary = try harness.run(["xclip", "-selection", "primary", "-o"])
        let clipboard = try harness.run(["xclip", "-selection", "clipboard", "-o"])
        #expect(primary.outputText == "primary text")
        #expect(clipboard.outputText == "clipboard text")
        let targets = try harness.run(["xclip", "-selection", "primary", "-t", "TARGETS", "-o"])
        #expect(!targets.outputText.contains("SAVE_TARGETS"))
    }
}

/// Incremental transfers to several, and to misbehaving, requestors.
@Suite(.serialized)
struct IncrementalTests {
    @Test func tenConcurrentReadersOf10MiB() throws {
        let harness = try Harness()
        let text = Sample.large(10 << 20)
        try harness.service.own(.clipboard, text: text, secret: false)
        let command = ["xclip", "-selection", "clipboard", "-o"]
        var maximum = 0
        let clients = try (0..<10).map { _ in
            RunningClient(try harness.spawn(command[0], Array(command.dropFirst())))
        }
        // Drive until all transfers started, noting how many ran at once.
        harness.pump(milliseconds: 5000) {
            maximum = max(maximum, harness.service.activeTransferCount)
            return maximum == 10 || clients.allSatisfy { !$0.process.isRunning }
        }
        let results = harness.finish(clients, timeoutMilliseconds: 60_000)
        #expect(maximum > 1, "transfers ran one after another, not at once")
        for (index, result) in results.enumerated() {
            #expect(result.succeeded, "reader \(index): \(result.errorText)")
            #expect(mismatch(result.output, text) == nil, "reader \(index)")
        }
        #expect(harness.service.activeTransferCount == 0)
    }

    @Test func readerKilledMidTransferCostsOnlyItsTransfer() throws {
        let harness = try Harness()
        let text = Sample.large(10 << 20)
        try harness.service.own(.clipboard, text: text, secret: false)
        let victim = try harness.spawn("xclip", ["-selection", "clipboard", "-o"])
        let started = harness.pump(milliseconds: 10_000) { harness.service.activeTransferCount == 1 }
        #expect(started)
        victim.signal(SIGKILL)
        _ = victim.waitForExit()
        // DestroyNotify ends the transfer well before the 5 s inactivity timeout.
        let killedAt = MonotonicClock.milliseconds()
        let dropped = harness.pump(milliseconds: 4000) { harness.service.activeTransferCount == 0 }
        #expect(dropped, "the killed reader's transfer was not dropped on DestroyNotify")
        #expect(MonotonicClock.milliseconds() - killedAt < 4000)
        let next = try harness.run(["xclip", "-selection", "clipboard", "-o"])
        #expect(next.succeeded)
        #expect(mismatch(next.output, text) == nil)
    }

    @Test func stalledReaderTimesOutWithoutBlockingOthers() throws {
        let harness = try Harness(configuration: SelectionConfiguration(incrementalTimeoutMilliseconds: 700))
        let text = Sample.large(2 << 20)
        try harness.service.own(.clipboard, text: text, secret: false)
        let stalled = try harness.spawn("xclip", ["-selection", "clipboard", "-o"])
        #expect(harness.pump(milliseconds: 10_000) { harness.service.activeTransferCount == 1 })
        // A stopped reader never deletes the property: its transfer stalls.
        stalled.signal(SIGSTOP)
        defer {
            stalled.signal(SIGKILL)
            _ = stalled.waitForExit()
        }
        let other = try harness.run(["xclip", "-selection", "clipboard", "-o"])
        #expect(other.succeeded)
        #expect(mismatch(other.output, text) == nil)
        // The stalled transfer is dropped by the inactivity timeout.
        #expect(harness.pump(milliseconds: 3000) { harness.service.activeTransferCount == 0 })
    }

    @Test func eventBudgetAsksForAnImmediateCall() throws {
        let harness = try Harness(configuration: SelectionConfiguration(maximumEventsPerCall: 1))
        let text = Sample.large(2 << 20)
        try harness.service.own(.clipboard, text: text, secret: false)
        let reader = RunningClient(try harness.spawn("xclip", ["-selection", "clipboard", "-o"]))
        // Drive the service as a strict daemon would: wait for the socket, or for the
        // deadline, never on a timer of its own. Leftover queued events must show up as a
        // deadline that is already due, or this loop stalls.
        var dueAtOnce = 0
        let deadline = MonotonicClock.milliseconds() + 20_000
        while reader.process.isRunning && MonotonicClock.milliseconds() < deadline {
            let now = MonotonicClock.milliseconds()
            harness.service.processEvents(now: now)
            let next = harness.service.nextDeadline()
            if let next, next <= now { dueAtOnce += 1 }
            let wait = next.map { $0 > now ? Int($0 - now) : 0 } ?? 1000
            var fds = [pollfd(fd: harness.service.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            fds += reader.pollDescriptors
            _ = poll(&fds, nfds_t(fds.count), Int32(min(wait, 1000)))
            for entry in fds.dropFirst() where entry.revents != 0 { reader.drain(entry) }
        }
        let result = harness.finish([reader])[0]
        #expect(dueAtOnce > 0)
        #expect(mismatch(result.output, text) == nil)
    }

    @Test func transferFinishesAfterOwnershipIsLost() throws {
        let harness = try Harness()
        let text = Sample.large(10 << 20)
        try harness.service.own(.clipboard, text: text, secret: true)
        let reader = RunningClient(try harness.spawn("xclip", ["-selection", "clipboard", "-o"]))
        #expect(harness.pump(milliseconds: 10_000) { harness.service.activeTransferCount == 1 })
        harness.service.release(.clipboard)
        #expect(!harness.service.owns(.clipboard))
        #expect(harness.service.ownedText(.clipboard) == nil)
        let result = harness.finish([reader])[0]
        #expect(result.succeeded)
        #expect(mismatch(result.output, text) == nil)
    }
}
