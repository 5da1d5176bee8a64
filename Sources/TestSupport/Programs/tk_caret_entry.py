# SPDX-License-Identifier: MIT
import sys, os, tkinter
out = sys.argv[1]
r = tkinter.Tk(className='CaretTarget')
e = tkinter.Entry(r, width=60)
e.pack()
last = [None]
def poll():
    state = e.get() + '|' + str(e.index('insert'))
    if state != last[0]:
        last[0] = state
        with open(out + '.tmp', 'w', encoding='utf-8') as f:
            f.write(state)
        os.replace(out + '.tmp', out)
    r.after(10, poll)
poll()
r.update()
e.focus_force()
print(r.wm_frame(), flush=True)
r.mainloop()
