# SPDX-License-Identifier: MIT
import sys, gi
gi.require_version('Gtk', '3.0')
from gi.repository import Gtk, GLib
GLib.set_prgname('bench-entry')
w = Gtk.Window(title='bench')
e = Gtk.Entry()
w.add(e)
e.connect('changed', lambda entry: print(entry.get_text(), flush=True))
w.show_all()
e.grab_focus()
Gtk.main()
