# SPDX-License-Identifier: MIT
x.XGrabServer.argtypes = [P]; x.XUngrabServer.argtypes = [P]
x.XGetSelectionOwner.restype = L; x.XGetSelectionOwner.argtypes = [P, L]
d = x.XOpenDisplay(None)
root = x.XDefaultRootWindow(d)
own = x.XCreateSimpleWindow(d, root, 0, 0, 1, 1, 0, 0, 0)
clipboard = x.XInternAtom(d, b'CLIPBOARD', 0)
stamp = x.XInternAtom(d, b'CLIPTAB_TIMESTAMP', 0)
integer = x.XInternAtom(d, b'INTEGER', 0)
daemon = x.XGetSelectionOwner(d, clipboard)
print('ready', daemon, flush=True)
for line in sys.stdin:
    if line.strip() == 'grab':
        x.XGrabServer(d); x.XSync(d, 0)
        print('grabbed', flush=True)
    elif line.strip() == 'steal':
        x.XChangeProperty(d, daemon, stamp, integer, 8, 2, None, 0)
        x.XSync(d, 0)
        time.sleep(0.01)
        x.XSetSelectionOwner(d, clipboard, own, 0)
        x.XUngrabServer(d); x.XSync(d, 0)
        print('stolen', flush=True)
