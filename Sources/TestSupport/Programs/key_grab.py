# SPDX-License-Identifier: MIT
failed = []
H = ctypes.CFUNCTYPE(I, P, P)
handler = H(lambda d, e: failed.append(1) or 0)
x.XSetErrorHandler(handler)
d = x.XOpenDisplay(None)
root = x.XDefaultRootWindow(d)
x.XStringToKeysym.restype = L; x.XStringToKeysym.argtypes = [ctypes.c_char_p]
x.XKeysymToKeycode.argtypes = [P, L]
x.XGrabKey.argtypes = [P, I, ctypes.c_uint, L, I, I, I]
code = x.XKeysymToKeycode(d, x.XStringToKeysym(sys.argv[1].encode()))
x.XGrabKey(d, code, 0x08 | 0x40, root, 1, 1, 1)
x.XSync(d, 0)
print('refused' if failed else 'grabbed', flush=True)
sys.stdin.read()
