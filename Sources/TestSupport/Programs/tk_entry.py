# SPDX-License-Identifier: MIT
# A Tk window holding one entry, which writes its text to the file OUT after every change
# (replaced whole, so a reader never sees half a text) and once it has the focus, so that
# the file's existence says the window is up; then it prints its window id (`wm_frame`).
#
# tk_entry.py OUT CLASS [ON_PASTE]: CLASS is the window's class name (WM_CLASS); ON_PASTE,
# when given, is Python run at every Ctrl+V in place of Tk's own paste, with `r` the root,
# `e` the entry and `event` the key event.
import sys, os, tkinter

out, class_name = sys.argv[1:3]
on_paste = sys.argv[3] if len(sys.argv) > 3 else None
r = tkinter.Tk(className=class_name)
v = tkinter.StringVar(r)
e = tkinter.Entry(r, textvariable=v, width=60)
e.pack()


def changed(*args):
    with open(out + '.tmp', 'w', encoding='utf-8') as f:
        f.write(v.get())
    os.replace(out + '.tmp', out)


v.trace_add('write', changed)
if on_paste is not None:
    def paste(event):
        exec(on_paste, {'r': r, 'e': e, 'event': event})
        return 'break'
    e.bind('<Control-v>', paste)
r.update()
e.focus_force()
changed()
print(r.wm_frame(), flush=True)
r.mainloop()
