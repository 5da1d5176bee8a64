# SPDX-License-Identifier: MIT
# A Tk window that prints its id (`wm_frame`, the top-level window) before it is mapped, and
# maps it MS milliseconds later: what a program does that prints its window id at once, when
# a loaded machine is slow to show the window (GTK printed an id xdotool could not focus).
#
# tk_late_window.py MS: runs until it is stopped.
import sys, tkinter

r = tkinter.Tk(className='LateWindow')
tkinter.Entry(r, width=20).pack()
r.withdraw()
r.update_idletasks()
print(r.wm_frame(), flush=True)
r.after(int(sys.argv[1]), r.deiconify)
r.mainloop()
