// SPDX-License-Identifier: MIT
import Foundation
import Posix
import Testing
import X11Selection

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
