# SPDX-License-Identifier: MIT
depth, shape, classed, active = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
x.XMapWindow.argtypes = [P, L]
x.XSetInputFocus.argtypes = [P, L, I, L]
d = x.XOpenDisplay(None)
root = x.XDefaultRootWindow(d)
top = x.XCreateSimpleWindow(d, root, 0, 0, 100, 100, 0, 0, 0)
windows = [top]
parent = top
for _ in range(depth):
    w = x.XCreateSimpleWindow(d, parent, 0, 0, 10, 10, 0, 0, 0)
    windows.append(w)
    if shape == 'chain':
        parent = w
if classed == 'top':
    value = b'nested\0Nested\0'
    x.XChangeProperty(d, top, x.XInternAtom(d, b'WM_CLASS', 0), x.XInternAtom(d, b'STRING', 0),
        8, 0, value, len(value))
# The deepest first: mapping the top-level window last makes them all viewable at once.
for w in reversed(windows):
    x.XMapWindow(d, w)
x.XSync(d, 0)
if active == 'top':
    item = L(top)
    x.XChangeProperty(d, root, x.XInternAtom(d, b'_NET_ACTIVE_WINDOW', 0),
        x.XInternAtom(d, b'WINDOW', 0), 32, 0, ctypes.cast(ctypes.pointer(item), P), 1)
focus = windows[-1] if shape == 'chain' else top
# PointerRoot is 1 in X.h.
x.XSetInputFocus(d, 1 if sys.argv[5:] == ['pointerroot'] else focus, 2, 0)
x.XSync(d, 0)
print('ready', top, focus, flush=True)
sys.stdin.readline()
