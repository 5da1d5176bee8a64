# SPDX-License-Identifier: MIT
# A GTK 3 window holding one entry, which writes its text to the file OUT after every change
# (replaced whole, so a reader never sees half a text) and once at the start, so that the
# file's existence says the window is up.
#
# gtk_entry.py OUT TITLE ANNOUNCE [NAME]: ANNOUNCE `xid` prints the X11 window's id once it
# is shown, `focus` prints `in` and `out` at each change of the focus, `none` nothing. NAME
# is the program's name (on Wayland its app id).
import sys, os, gi

gi.require_version('Gtk', '3.0')
out, title, announce = sys.argv[1:4]
if announce == 'xid':
    gi.require_version('GdkX11', '3.0')
    from gi.repository import GdkX11
from gi.repository import Gtk, GLib

if len(sys.argv) > 4:
    GLib.set_prgname(sys.argv[4])
w = Gtk.Window(title=title)
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
if announce == 'xid':
    print(hex(w.get_window().get_xid()), flush=True)
elif announce == 'focus':
    w.connect('focus-in-event', lambda *args: print('in', flush=True))
    w.connect('focus-out-event', lambda *args: print('out', flush=True))
Gtk.main()
