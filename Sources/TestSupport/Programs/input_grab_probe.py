# SPDX-License-Identifier: MIT
# Another X client of the user's that tries to take the input (run after xlib_prelude.py).
#
# input_grab_probe.py once: grabs the keyboard and the pointer on the root window and prints
# both results (`0 0`: it had them both), then exits.
# input_grab_probe.py lines: prints `ready`, then for each line it reads tries to grab the
# keyboard, prints the result (0: it had it) and lets go; started once, it answers at once.
x.XGrabKeyboard.argtypes = [P, L, I, I, I, L]
x.XUngrabKeyboard.argtypes = [P, L]
x.XGrabPointer.argtypes = [P, L, I, ctypes.c_uint, I, I, L, L, L]
d = x.XOpenDisplay(None)
root = x.XDefaultRootWindow(d)
if sys.argv[1] == 'once':
    keyboard = x.XGrabKeyboard(d, root, 1, 1, 1, 0)
    pointer = x.XGrabPointer(d, root, 1, 4, 1, 1, 0, 0, 0)
    print(keyboard, pointer)
else:
    print('ready', flush=True)
    for line in sys.stdin:
        result = x.XGrabKeyboard(d, root, 1, 1, 1, 0)
        x.XUngrabKeyboard(d, 0)
        x.XSync(d, 0)
        print(result, flush=True)
