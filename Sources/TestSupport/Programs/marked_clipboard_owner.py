# SPDX-License-Identifier: MIT
import sys, tkinter
root = tkinter.Tk()
root.withdraw()
mode = sys.argv[1]
text = sys.stdin.buffer.read().decode('utf-8')
if mode == 'refuse':
    # A handler that fails makes Tk refuse the conversion (property None).
    root.tk.eval('''
        proc cliptab_text {offset length} {
            return [string range $::cliptab_text $offset [expr {$offset + $length - 1}]]
        }
        proc cliptab_refuse {offset length} { error "no hint" }
    ''')
    root.tk.setvar('cliptab_text', text)
    root.tk.eval('selection handle -selection CLIPBOARD -type UTF8_STRING . cliptab_text')
    root.tk.eval(
        'selection handle -selection CLIPBOARD -type x-kde-passwordManagerHint . cliptab_refuse')
    root.tk.eval('selection own -selection CLIPBOARD .')
else:
    root.clipboard_clear()
    root.clipboard_append(text)
    if mode != 'none':
        root.clipboard_append(mode, type='x-kde-passwordManagerHint')
root.update()
print('ready', flush=True)
root.mainloop()
