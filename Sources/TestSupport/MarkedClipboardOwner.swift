// SPDX-License-Identifier: MIT

/// A Tk program that owns CLIPBOARD with the text on its standard input and marks it with
/// the password-manager hint the way KeePassXC does (`x-kde-passwordManagerHint`).
///
/// Run as `python3 -c script MODE`: MODE `none` offers no hint, `refuse` lists the hint
/// target in TARGETS but refuses to convert it, any other MODE is the hint's value (`secret`
/// is the mark). It prints `ready` once it owns the clipboard and serves until killed or
/// until another program takes the clipboard.
public enum MarkedClipboardOwner {
    /// The Python source.
    public static let script = """
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
        """
}
