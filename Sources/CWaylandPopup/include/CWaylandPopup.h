// SPDX-License-Identifier: MIT
// The Wayland side of cliptab-menu's layer-shell popup, for the PopupWayland module, which
// alone imports this: the connection and its globals (compositor, shm, seat, outputs,
// zwlr_layer_shell_v1, wl_subcompositor), one full-output overlay surface with the keyboard held exclusively
// (never drawn) and the menu's box on it as a wl_subsurface,
// wl_shm buffers to draw into, and the seat's keyboard events queued as they come (Swift reads
// them with libxkbcommon, whose headers are included for it). Listeners and requests live in C
// because libwayland's marshaller is variadic; what the popup needs comes out as a queue of
// plain events. Every call that can fail returns -1 or NULL and leaves its reason in `error`.
#ifndef CWAYLANDPOPUP_H
#define CWAYLANDPOPUP_H

#include <stddef.h>
#include <stdint.h>
#include <xkbcommon/xkbcommon-compose.h>
#include <xkbcommon/xkbcommon.h>

/// The connection and everything made on it (opaque).
typedef struct CWP_popup CWP_popup;

/// What an event is.
typedef enum CWP_event_kind {
    /// A key went down or up: `values` the evdev code and 1 pressed, 0 released.
    CWP_EVENT_KEY_CODE = 1,
    /// The pointer entered the surface or moved on it: `x`, `y` in surface pixels (logical).
    CWP_EVENT_MOTION = 2,
    /// A pointer button was pressed: `button` (1 left, 2 middle, 3 right) at `x`, `y`.
    CWP_EVENT_BUTTON = 3,
    /// A wheel step: `axis` -1 up, 1 down, at `x`, `y`.
    CWP_EVENT_SCROLL = 4,
    /// The surface must be drawn again (a new size or scale).
    CWP_EVENT_REDRAW = 5,
    /// The compositor closed the surface.
    CWP_EVENT_CLOSED = 6,
    /// The keymap (xkb v1 text): `fd` to map and close, `values[0]` its size.
    CWP_EVENT_KEYMAP = 7,
    /// The modifiers: `values` depressed, latched, locked, group.
    CWP_EVENT_MODIFIERS = 8,
    /// The repeat: `values` rate (keys a second, 0: none) and delay (milliseconds).
    CWP_EVENT_REPEAT_INFO = 9,
    /// The keyboard left the surface (or the seat lost it): no key is held any more.
    CWP_EVENT_KEYBOARD_LEFT = 10,
} CWP_event_kind;

/// One event of the queue.
typedef struct CWP_event {
    CWP_event_kind kind;
    uint32_t values[4];
    int32_t fd;
    int32_t x, y;
    int button;
    int axis;
} CWP_event;

/// Connects to the compositor (WAYLAND_DISPLAY) and reads its globals; NULL when it cannot,
/// with the reason in `error`.
CWP_popup *CWP_connect(char *error, size_t size);
/// Ends everything: surface, buffers, keyboard, connection.
void CWP_disconnect(CWP_popup *popup);
/// The reason of the last failure.
const char *CWP_error(const CWP_popup *popup);
/// 1 when the compositor offers zwlr_layer_shell_v1.
int CWP_has_layer_shell(const CWP_popup *popup);
/// 1 when the seat has a keyboard.
int CWP_has_keyboard(const CWP_popup *popup);

/// Makes the overlay surface over the whole focused output, with the keyboard held
/// exclusively, and waits for its first configure. -1 on failure.
int CWP_show(CWP_popup *popup, const char *name_space);
/// Destroys the surface (giving the keyboard back) and waits until the compositor has
/// handled that. Harmless when nothing is shown.
int CWP_hide(CWP_popup *popup);
/// 1 while the surface exists.
int CWP_is_shown(const CWP_popup *popup);
/// The surface's size in logical pixels, and the scale of its output.
void CWP_size(const CWP_popup *popup, int *width, int *height, int *scale);
/// Where the pointer was when it entered the surface, or -1 when it has not.
void CWP_pointer(const CWP_popup *popup, int *x, int *y);

/// A free buffer for the menu's box of `box_width` × `box_height` logical pixels, times the
/// output's scale, to draw into (ARGB8888, premultiplied): its pixels, width, height and
/// stride in bytes. NULL on failure.
void *CWP_begin_frame(CWP_popup *popup, int box_width, int box_height, int *width, int *height, int *stride);
/// 1 when the buffer begun last is new, so still all zeros (transparent): nothing to clear.
int CWP_frame_is_fresh(const CWP_popup *popup);
/// Shows the buffer begun last as the box, its corner at `x`, `y` on the overlay (logical
/// pixels), and commits. -1 on failure.
int CWP_end_frame(CWP_popup *popup, int x, int y);

/// Before poll(): dispatches what is queued, prepares to read and flushes. Returns the
/// descriptor to poll for reading, or -1 when the connection failed.
int CWP_before_poll(CWP_popup *popup);
/// After poll(): reads (when `readable`) or cancels the read, then dispatches. -1 when the
/// connection failed.
int CWP_after_poll(CWP_popup *popup, int readable);
/// Takes the oldest queued event into `event`; 0 when there is none.
int CWP_next_event(CWP_popup *popup, CWP_event *event);

#endif
