# SPDX-License-Identifier: MIT
import subprocess
mode, delay = sys.argv[1], int(sys.argv[2]) / 1000
xf = ctypes.cdll.LoadLibrary(ctypes.util.find_library('Xfixes'))
xf.XFixesQueryExtension.argtypes = [P, ctypes.POINTER(I), ctypes.POINTER(I)]
xf.XFixesSelectSelectionInput.argtypes = [P, L, L, ctypes.c_ulong]
x.XFree.argtypes = [P]
d = x.XOpenDisplay(None)
w = x.XCreateSimpleWindow(d, x.XDefaultRootWindow(d), 0, 0, 1, 1, 0, 0, 0)
base, error_base = I(), I()
xf.XFixesQueryExtension(d, ctypes.byref(base), ctypes.byref(error_base))
clipboard = x.XInternAtom(d, b'CLIPBOARD', 0)
utf8 = x.XInternAtom(d, b'UTF8_STRING', 0)
saved = x.XInternAtom(d, b'WATCHER_SAVED', 0)
if mode == 'manager':
    x.XSetSelectionOwner(d, x.XInternAtom(d, b'CLIPBOARD_MANAGER', 0), w, 0)
xf.XFixesSelectSelectionInput(d, w, clipboard, 1)
x.XSync(d, 0)
print('ready', flush=True)
event = (ctypes.c_char * 192)()
fd = x.XConnectionNumber(d)
def read_property():
    kind, fmt, count, after, data = L(), I(), L(), L(), P()
    x.XGetWindowProperty(d, w, saved, 0, 1 << 20, 1, 0, ctypes.byref(kind), ctypes.byref(fmt),
        ctypes.byref(count), ctypes.byref(after), ctypes.byref(data))
    if not data.value:
        return None
    text = ctypes.string_at(data.value, count.value).decode('utf-8', 'replace')
    x.XFree(data)
    return text
while True:
    while x.XPending(d) == 0:
        select.select([fd], [], [])
    x.XNextEvent(d, event)
    kind = ctypes.c_int.from_buffer(event).value
    if kind == base.value and L.from_buffer(event, 48).value != 0:
        time.sleep(delay)
        if mode == 'xclip':
            r = subprocess.run(['xclip', '-selection', 'clipboard', '-o'], capture_output=True)
            text = r.stdout.decode('utf-8', 'replace') if r.returncode == 0 else None
            print('saved', json.dumps(text), flush=True)
        else:
            x.XConvertSelection(d, clipboard, utf8, saved, w, 0)
            x.XFlush(d)
    elif kind == 31:
        print('saved', json.dumps(read_property() if L.from_buffer(event, 56).value else None), flush=True)
