# SPDX-License-Identifier: MIT
import tkinter
r = tkinter.Tk(className='PasteBench')
v = tkinter.StringVar(r)
e = tkinter.Entry(r, textvariable=v, width=60)
e.pack()
v.trace_add('write', lambda *a: print(v.get(), flush=True))
r.update()
e.focus_force()
print('ready', flush=True)
r.mainloop()
