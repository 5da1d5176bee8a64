// SPDX-License-Identifier: MIT
import DBus
import Foundation

/// The Python of a GTK 3 window holding a form of three entries, for the fill tests.
///
/// After every change it writes `{"entries": [...], "activated": N}` to the file named by its
/// first argument (replaced whole, so a reader never sees half a text), and once at the
/// start. Enter in an entry counts an activation and moves the focus to the next entry, as
/// a form that moves on at Enter does. The entry numbered by the second argument (from 0;
/// -1: none) never fetches the clipboard: its paste is stopped before GTK asks for the
/// text. `imports`, `setup` and `shown` as in `GtkEntryScript`.
enum GtkFormScript {
    /// The script.
    static func make(imports: String = "", setup: String = "", shown: String = "") -> String {
        """
        import sys, os, json, gi
        gi.require_version('Gtk', '3.0')
        \(imports.contains("GdkX11") ? "gi.require_version('GdkX11', '3.0')" : "")
        from gi.repository import Gtk\(imports.isEmpty ? "" : ", " + imports)
        \(setup)
        out = sys.argv[1]
        deaf = int(sys.argv[2])
        w = Gtk.Window(title='fill target')
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        w.add(box)
        entries = []
        activated = [0]
        def write(*args):
            with open(out + '.tmp', 'w', encoding='utf-8') as f:
                json.dump({'entries': [e.get_text() for e in entries], 'activated': activated[0]}, f)
            os.replace(out + '.tmp', out)
        def activate(entry):
            activated[0] += 1
            w.child_focus(Gtk.DirectionType.TAB_FORWARD)
            write()
        for n in range(3):
            e = Gtk.Entry()
            box.pack_start(e, False, False, 0)
            entries.append(e)
            e.connect('changed', write)
            e.connect('activate', activate)
            if n == deaf:
                e.connect('paste-clipboard', lambda e: e.stop_emission_by_name('paste-clipboard'))
        write()
        w.show_all()
        entries[0].grab_focus()
        \(shown)
        Gtk.main()
        """
    }

    /// The form as its file says: each entry's text and the activations (nil before the
    /// file is there).
    static func read(_ path: String) -> (entries: [String], activated: Int)? {
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = object["entries"] as? [String], let activated = object["activated"] as? Int
        else { return nil }
        return (entries, activated)
    }
}

/// The `a{sv}` options of a `FillToFocus` call.
func fillOptions(_ values: [String: BusValue]) -> BusValue {
    .dictionary(
        keySignature: "s", valueSignature: "v",
        values.sorted { $0.key < $1.key }.map { (BusValue.string($0.key), BusValue.variant($0.value)) })
}
