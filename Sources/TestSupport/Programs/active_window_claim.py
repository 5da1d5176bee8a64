# SPDX-License-Identifier: MIT
import signal
d = x.XOpenDisplay(None)
root = x.XDefaultRootWindow(d)
w = x.XCreateSimpleWindow(d, root, 0, 0, 10, 10, 0, 0, 0)
value = b'st-256color\0st-256color\0'
x.XChangeProperty(d, w, x.XInternAtom(d, b'WM_CLASS', 0), x.XInternAtom(d, b'STRING', 0),
    8, 0, value, len(value))
item = L(w)
x.XChangeProperty(d, root, x.XInternAtom(d, b'_NET_ACTIVE_WINDOW', 0),
    x.XInternAtom(d, b'WINDOW', 0), 32, 0, ctypes.cast(ctypes.pointer(item), P), 1)
x.XSync(d, 0)
print('ready', hex(w), flush=True)
signal.pause()
