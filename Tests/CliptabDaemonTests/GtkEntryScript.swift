// SPDX-License-Identifier: MIT

/// The Python of a GTK 3 window holding one entry, which writes its text to the file named
/// by its first argument after every change (replaced whole, so a reader never sees half a
/// text) and once at the start, so that the file's existence says the window is up.
///
/// The paste tests differ only in what they import, how the program names itself, and what
/// it tells once it is shown: `imports` is added to the `gi.repository` import (`GLib`,
/// `GdkX11`), `setup` runs before the window is made, `shown` after it has the focus.
enum GtkEntryScript {
    /// The script of an entry titled `title`.
    static func make(title: String, imports: String = "", setup: String = "", shown: String = "") -> String {
        """
        import sys, os, gi
        gi.require_version('Gtk', '3.0')
        \(imports.contains("GdkX11") ? "gi.require_version('GdkX11', '3.0')" : "")
        from gi.repository import Gtk\(imports.isEmpty ? "" : ", " + imports)
        \(setup)
        out = sys.argv[1]
        w = Gtk.Window(title='\(title)')
        e = Gtk.Entry()
        w.add(e)
        def changed(entry):
            with open(out + '.tmp', 'w', encoding='utf-8') as f:
                f.write(entry.get_text())
            os.replace(out + '.tmp', out)
        e.connect('changed', changed)
        changed(e)
        w.show_all()
        e.grab_focus()
        \(shown)
        Gtk.main()
        """
    }
}
