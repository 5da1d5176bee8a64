// The popups' text: pango (shaping with HarfBuzz, fallback fonts per character through
// fontconfig, bidirectional text with FriBidi) drawn by cairo into memory the caller owns.
// Imported only by the PopupText module.
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>

// PANGO_SCALE is a macro Swift sees, but pango_layout_set_text's length and the object
// reference counting are easier to reach through these.
static inline int CPangoCairo_scale(void) { return PANGO_SCALE; }
static inline void CPangoCairo_unref(void *object) { g_object_unref(object); }
static inline void CPangoCairo_ref(void *object) { g_object_ref(object); }
