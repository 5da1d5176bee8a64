#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XTest.h>

/* The mask of the resource-id bits a client may choose; the rest name the client. Every
   client gets the same mask, so (xid & ~mask) tells which client made a window. Xlib.h's
   public view of the Display calls the field private4 (Xlibint.h: resource_mask). */
static inline unsigned long cliptab_resource_mask(Display *display) {
    return ((_XPrivDisplay)display)->private4;
}
