// The popup menu's C libraries: Xlib (window, grabs, input method), Xft and fontconfig
// (text), Xinerama (monitors). Imported only by the PopupWindow module.
#include <locale.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/Xresource.h>
#include <X11/keysym.h>
#include <X11/Xft/Xft.h>
#include <X11/extensions/Xinerama.h>

// XCreateIC takes a NULL-terminated variable argument list, which Swift cannot call.
static inline XIC CXft_createInputContext(XIM method, Window window) {
    return XCreateIC(method, XNInputStyle, XIMPreeditNothing | XIMStatusNothing, XNClientWindow, window,
                     XNFocusWindow, window, NULL);
}
