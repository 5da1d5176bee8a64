# SPDX-License-Identifier: MIT
# The fill benchmark's GTK 3 form of five entries (program name `fill-bench`): it prints
# every entry's text, joined by \x1f, after each change; at each line on standard input it
# empties the entries, focuses the first and prints `reset`; it ends with its input.
#
# gtk_bench_form.py ANNOUNCE: `xid` prints the X11 window's id once shown, `ready` prints
# `ready`.
import sys, gi

gi.require_version('Gtk', '3.0')
x11 = sys.argv[1] == 'xid'
if x11:
    gi.require_version('GdkX11', '3.0')
    from gi.repository import GdkX11
from gi.repository import Gtk, GLib

GLib.set_prgname('fill-bench')
w = Gtk.Window(title='fill bench')
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
w.add(box)
entries = []


def show(*args):
    print('\x1f'.join(e.get_text() for e in entries), flush=True)


for n in range(5):
    e = Gtk.Entry()
    box.pack_start(e, False, False, 0)
    entries.append(e)
    e.connect('changed', show)


def command(fd, condition):
    if not sys.stdin.readline():
        Gtk.main_quit()
        return False
    for e in entries:
        e.handler_block_by_func(show)
        e.set_text('')
        e.handler_unblock_by_func(show)
    entries[0].grab_focus()
    print('reset', flush=True)
    return True


GLib.io_add_watch(sys.stdin.fileno(), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, command)
w.show_all()
entries[0].grab_focus()
print(hex(w.get_window().get_xid()) if x11 else 'ready', flush=True)
Gtk.main()
