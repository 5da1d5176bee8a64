# SPDX-License-Identifier: MIT
import sys, gi
gi.require_version('Gtk', '3.0')
from gi.repository import Gtk, Gdk
clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
data = clipboard.wait_for_contents(Gdk.Atom.intern(sys.argv[1], False))
text = data.get_text() if data is not None else None
if text is None:
    sys.exit(3)
sys.stdout.buffer.write(text.encode('utf-8'))
