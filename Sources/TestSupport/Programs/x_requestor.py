# SPDX-License-Identifier: MIT
display = x.XOpenDisplay(None)
if not display:
    sys.exit('no display')
window = x.XCreateSimpleWindow(display, x.XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
atom = lambda name: x.XInternAtom(display, name.encode(), 0)
mode, count = sys.argv[1], int(sys.argv[2])
if mode == 'multiple':
    properties = [atom('HOSTILE_%d' % k) for k in range(64)]
    pairs = (L * (2 * count))()
    for k in range(count):
        pairs[2 * k] = atom('UTF8_STRING')
        pairs[2 * k + 1] = properties[k % 64]
    x.XChangeProperty(display, window, atom('HOSTILE_PAIRS'), atom('ATOM_PAIR'), 32, 0, pairs, 2 * count)
    x.XConvertSelection(display, atom('CLIPBOARD'), atom('MULTIPLE'), atom('HOSTILE_PAIRS'), window, 0)
else:
    x.XConvertSelection(display, atom('CLIPBOARD'), atom('UTF8_STRING'), atom('HOSTILE'), window, 0)
x.XFlush(display)
event = ctypes.create_string_buffer(192)
start, said = time.time(), 'silent'
while time.time() - start < 10:
    if x.XPending(display):
        x.XNextEvent(display, event)
        if ctypes.c_int.from_buffer(event).value == 31:
            said = 'notified'
            break
    else:
        time.sleep(0.005)
print(said, flush=True)
if mode == 'stall':
    time.sleep(count)
print('end', flush=True)
