# SPDX-License-Identifier: MIT
HANDLER = ctypes.CFUNCTYPE(I, P, P)
ignore = HANDLER(lambda display, error: 0)  # a destroyed window's BadWindow must not end us
x.XSetErrorHandler(ignore)
dpy = x.XOpenDisplay(None)
if not dpy:
    sys.exit('cannot open the display')
root = x.XDefaultRootWindow(dpy)
atom = lambda name: x.XInternAtom(dpy, name.encode(), 0)
CLIPBOARD = atom('CLIPBOARD')
SELECTION_REQUEST, SELECTION_NOTIFY, PROPERTY_NOTIFY = 30, 31, 28

def window():
    w = x.XCreateSimpleWindow(dpy, root, 0, 0, 1, 1, 0, 0, 0)
    x.XSelectInput(dpy, w, 1 << 22)  # PropertyChangeMask
    return w

def events(seconds):
    # Every event that arrives within `seconds`, as arrays of C longs.
    deadline = time.time() + seconds
    while True:
        while x.XPending(dpy):
            event = (ctypes.c_long * 24)()
            x.XNextEvent(dpy, event)
            yield event
        left = deadline - time.time()
        if left <= 0:
            return
        select.select([x.XConnectionNumber(dpy)], [], [], min(left, 0.05))

def notifications(count, seconds):
    got = []
    for event in events(seconds):
        if event[0] & 0xffffffff == SELECTION_NOTIFY:
            got.append((event[4], event[6], event[7]))  # requestor, target, property
            if len(got) == count:
                break
    return got

def property_type(w, prop):
    t, f, n, after, data = L(), I(), L(), L(), P()
    x.XGetWindowProperty(dpy, w, prop, 0, 0, 0, 0, ctypes.byref(t), ctypes.byref(f),
        ctypes.byref(n), ctypes.byref(after), ctypes.byref(data))
    return t.value

mode = sys.argv[1]
result = {}
if mode == 'unknown':
    w, count = window(), int(sys.argv[2])
    for k in range(count):
        x.XConvertSelection(dpy, CLIPBOARD, atom('x-no-such-target-%d' % k), atom('P%d' % (k % 8)), w, 0)
    x.XFlush(dpy)
    got = notifications(count, 30)
    result = {'answered': len(got), 'refused': sum(1 for g in got if g[2] == 0)}
elif mode == 'stall':
    w = window()
    x.XConvertSelection(dpy, CLIPBOARD, atom('UTF8_STRING'), atom('STALL'), w, 0)
    x.XFlush(dpy)
    got = notifications(1, 10)
    result = {'incr': bool(got) and got[0][2] != 0 and property_type(w, atom('STALL')) == atom('INCR')}
    print(json.dumps(result))  # at once: the siege may end it before the time is up
    sys.stdout.flush()
    time.sleep(float(sys.argv[2]))  # and never delete the property
    sys.exit(0)
elif mode == 'destroy':
    started = 0
    for k in range(int(sys.argv[2])):
        w = window()
        prop = atom('DESTROY')
        x.XConvertSelection(dpy, CLIPBOARD, atom('UTF8_STRING'), prop, w, 0)
        x.XFlush(dpy)
        got = notifications(1, 10)
        if got and got[0][2] != 0 and property_type(w, prop) == atom('INCR'):
            started += 1
            x.XDeleteProperty(dpy, w, prop)  # asks for the first chunk...
            x.XFlush(dpy)
            time.sleep(0.005)
            x.XDestroyWindow(dpy, w)  # ...and goes away while it is written
            x.XSync(dpy, 0)
    result = {'started': started}
elif mode == 'multiple':
    answers = {}
    cases = {
        'odd': ('ATOM_PAIR', 32, [atom('UTF8_STRING'), atom('A1'), atom('STRING')]),
        'format8': ('ATOM_PAIR', 8, list(b'garbage!')),
        'zeros': ('ATOM_PAIR', 32, [0, 0, 0, atom('A2'), atom('UTF8_STRING'), 0]),
        'bad-atoms': ('ATOM_PAIR', 32, [0x1fffffff, atom('A3'), atom('UTF8_STRING'), 0x1ffffffe]),
        'nested': ('ATOM_PAIR', 32, [atom('MULTIPLE'), atom('A4'), atom('MULTIPLE'), atom('MULTI')]),
        'self': ('ATOM_PAIR', 32, [atom('UTF8_STRING'), atom('MULTI'), atom('TARGETS'), atom('MULTI')]),
        'many': ('ATOM_PAIR', 32, sum([[atom('UTF8_STRING'), atom('M%d' % k)] for k in range(1000)], [])),
        'wrong-type': ('STRING', 32, [atom('UTF8_STRING'), atom('A5')]),
        'missing': None,
    }
    for name, spec in cases.items():
        w = window()
        prop = atom('MULTI')
        if spec:
            kind, fmt, items = spec
            if fmt == 32:
                values = (L * len(items))(*items)
            else:
                values = (ctypes.c_ubyte * len(items))(*items)
            x.XChangeProperty(dpy, w, prop, atom(kind), fmt, 0, values, len(items))
        x.XConvertSelection(dpy, CLIPBOARD, atom('MULTIPLE'), prop, w, 0)
        x.XFlush(dpy)
        got = notifications(1, 10)
        answers[name] = 'none' if not got else ('refused' if got[0][2] == 0 else 'converted')
    # A parameter property on a window that is gone before the owner reads it.
    w = window()
    values = (L * 2)(atom('UTF8_STRING'), atom('A6'))
    x.XChangeProperty(dpy, w, atom('MULTI'), atom('ATOM_PAIR'), 32, 0, values, 2)
    x.XConvertSelection(dpy, CLIPBOARD, atom('MULTIPLE'), atom('MULTI'), w, 0)
    x.XDestroyWindow(dpy, w)
    x.XSync(dpy, 0)
    result = answers
elif mode == 'flood':
    w, count, target = window(), int(sys.argv[2]), sys.argv[3]
    props = [atom('F%d' % k) for k in range(count)]
    for prop in props:
        x.XConvertSelection(dpy, CLIPBOARD, atom(target), prop, w, 0)
    x.XFlush(dpy)
    got = notifications(count, 60)
    result = {'answered': len(got), 'converted': sum(1 for g in got if g[2] != 0)}
elif mode == 'own-silently':
    w = window()
    x.XSetSelectionOwner.argtypes = [P, L, L, L]
    x.XSetSelectionOwner(dpy, CLIPBOARD, w, 0)
    x.XSync(dpy, 0)
    print(json.dumps({'owned': True}))
    sys.stdout.flush()
    for event in events(float(sys.argv[2])):  # and never answer a request
        if event[0] & 0xffffffff == SELECTION_REQUEST:
            print(json.dumps({'request': True}))  # but say that one came
            sys.stdout.flush()
    sys.exit(0)
print(json.dumps(result))
sys.stdout.flush()
