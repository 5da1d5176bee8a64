# SPDX-License-Identifier: MIT
dpy = x.XOpenDisplay(None)
win = x.XCreateSimpleWindow(dpy, x.XDefaultRootWindow(dpy), 0, 0, 1, 1, 0, 0, 0)
atom = lambda name: x.XInternAtom(dpy, name.encode(), 0)
name = lambda a: x.XGetAtomName(dpy, a).decode() if a else None
def read(prop):
    t, f, n, after, data = L(), I(), L(), L(), P()
    x.XGetWindowProperty(dpy, win, prop, 0, 1 << 20, 0, 0, ctypes.byref(t), ctypes.byref(f),
        ctypes.byref(n), ctypes.byref(after), ctypes.byref(data))
    if not t.value:
        return None
    if f.value == 32:
        items = list(ctypes.cast(data, ctypes.POINTER(L))[:n.value])
        if name(t.value) in ('ATOM', 'ATOM_PAIR'):
            return {'type': name(t.value), 'atoms': [name(a) for a in items]}
        return {'type': name(t.value), 'values': items}
    return {'type': name(t.value), 'hex': ctypes.string_at(data, n.value).hex()}
def convert(target, prop, time=0):
    x.XConvertSelection(dpy, atom('CLIPBOARD'), atom(target), prop, win, time)
    event = (ctypes.c_long * 24)()
    while True:
        x.XNextEvent(dpy, event)
        if event[0] & 0xffffffff == 31:  # SelectionNotify
            return event[7]  # its property
mode = sys.argv[1]
if mode == 'multiple':
    pairs = ['UTF8_STRING', 'P1', 'image/png', 'P2', 'STRING', 'P3', 'MULTIPLE', 'P4', 'TIMESTAMP', 'P5']
    values = (L * len(pairs))(*[atom(p) for p in pairs])
    x.XChangeProperty(dpy, win, atom('PARAMS'), atom('ATOM_PAIR'), 32, 0, values, len(pairs))
    got = convert('MULTIPLE', atom('PARAMS'))
    result = {'property': name(got), 'params': read(atom('PARAMS'))}
    result.update({p: read(atom(p)) for p in ['P1', 'P2', 'P3', 'P5']})
elif mode == 'multiple-without-property':
    result = {'property': name(convert('MULTIPLE', 0))}
elif mode == 'obsolete':
    got = convert('UTF8_STRING', 0)
    result = {'property': name(got), 'value': read(got) if got else None}
elif mode == 'old-time':
    result = {'property': name(convert('UTF8_STRING', atom('P1'), time=1))}
print(json.dumps(result))
