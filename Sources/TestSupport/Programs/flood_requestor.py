# SPDX-License-Identifier: MIT
dpy = x.XOpenDisplay(None)
atom = lambda name: x.XInternAtom(dpy, name.encode(), 0)
w = x.XCreateSimpleWindow(dpy, x.XDefaultRootWindow(dpy), 0, 0, 1, 1, 0, 0, 0)
CLIPBOARD = atom('CLIPBOARD')

def notified(count, seconds):
    got, deadline = [], time.time() + seconds
    while len(got) < count and time.time() < deadline:
        while x.XPending(dpy) and len(got) < count:
            event = (ctypes.c_long * 24)()
            x.XNextEvent(dpy, event)
            if event[0] & 0xffffffff == 31:  # SelectionNotify
                got.append(event[7])  # its property: 0 when refused
        select.select([x.XConnectionNumber(dpy)], [], [], 0.05)
    return got

mode, count = sys.argv[1], int(sys.argv[2])
if mode == 'flood':
    for k in range(count):
        x.XConvertSelection(dpy, CLIPBOARD, atom('STRING'), atom('FLOOD%d' % k), w, 0)
    x.XFlush(dpy)
    got = notified(count, 30)
    print(json.dumps({'answered': len(got), 'converted': sum(1 for p in got if p)}), flush=True)
    time.sleep(float(sys.argv[3]))
else:
    pairs = []
    for k in range(count):
        pairs += [atom('UTF8_STRING'), atom('PAIR%d' % (k % 100))]
    values = (L * len(pairs))(*pairs)
    x.XChangeProperty(dpy, w, atom('MULTI'), atom('ATOM_PAIR'), 32, 0, values, len(pairs))
    x.XConvertSelection(dpy, CLIPBOARD, atom('MULTIPLE'), atom('MULTI'), w, 0)
    x.XFlush(dpy)
    got = notified(1, 30)
    t, f, n, after, data = L(), I(), L(), L(), P()
    x.XGetWindowProperty(dpy, w, atom('MULTI'), 0, 1 << 20, 0, 0, ctypes.byref(t), ctypes.byref(f),
        ctypes.byref(n), ctypes.byref(after), ctypes.byref(data))
    items = ctypes.cast(data, ctypes.POINTER(L))
    converted = sum(1 for k in range(1, n.value, 2) if items[k] != 0)
    print(json.dumps({'answered': len(got), 'converted': converted, 'pairs': n.value // 2}))
