# SPDX-License-Identifier: MIT
import sys
from gi.repository import Gio, GLib
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
rd = 'org.gnome.Mutter.RemoteDesktop'
path = bus.call_sync(rd, '/org/gnome/Mutter/RemoteDesktop', rd, 'CreateSession', None,
    GLib.VariantType('(o)'), 0, 5000, None).unpack()[0]
def call(method, args=None):
    bus.call_sync(rd, path, rd + '.Session', method, args, None, 0, 5000, None)
def key(keysym, pressed):
    call('NotifyKeyboardKeysym', GLib.Variant('(ub)', (keysym, pressed)))
call('Start')
key(0xffe1, True)
key(0xffe1, False)
print('ready', flush=True)
for line in sys.stdin:
    for chord in line.split():
        keysyms = [int(part, 16) for part in chord.split('+')]
        for keysym in keysyms:
            key(keysym, True)
        for keysym in reversed(keysyms):
            key(keysym, False)
    print('sent', flush=True)
