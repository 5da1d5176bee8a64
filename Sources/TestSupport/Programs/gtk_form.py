# SPDX-License-Identifier: MIT
# A GTK 3 window holding a form of three entries, for the fill tests.
#
# gtk_form.py OUT DEAF ANNOUNCE [NAME]: after every change it writes
# {"entries": [...], "activated": N} to the file OUT (replaced whole, so a reader never sees
# half a text), and once at the start. Enter in an entry counts an activation and moves the
# focus to the next entry, as a form that moves on at Enter does. The entry numbered DEAF
# (from 0; -1: none) never fetches the clipboard: its paste is stopped before GTK asks for
# the text. ANNOUNCE and NAME as in gtk_entry.py (`xid` or `none`).
import sys, os, json, gi

gi.require_version('Gtk', '3.0')
out, deaf, announce = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if announce == 'xid':
    gi.require_version('GdkX11', '3.0')
    from gi.repository import GdkX11
from gi.repository import Gtk, GLib

if len(sys.argv) > 4:
    GLib.set_prgname(sys.argv[4])
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
if announce == 'xid':
    print(hex(w.get_window().get_xid()), flush=True)
Gtk.main()
