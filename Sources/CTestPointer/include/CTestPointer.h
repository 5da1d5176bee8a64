// SPDX-License-Identifier: MIT
// A pointer for tests on a headless wlroots compositor, whose seat has none: a
// zwlr_virtual_pointer_v1 on its own connection, for the TestSupport module, which alone
// imports this. The seat has a pointer while it lives; it moves to absolute points and
// presses buttons. Requests are marshalled here because Swift cannot call libwayland's
// variadic marshaller; the protocol's two interfaces are written out in pointer.c.
#ifndef CTESTPOINTER_H
#define CTESTPOINTER_H
#include <stddef.h>
#include <stdint.h>

/// The connection and the virtual pointer (opaque).
typedef struct CTP_pointer CTP_pointer;

/// Connects to the compositor at `display` (a socket name or path) and makes a virtual
/// pointer on its seat; NULL with the reason in `error` when it cannot.
CTP_pointer *CTP_connect(const char *display, char *error, size_t size);
/// Removes the pointer and disconnects.
void CTP_disconnect(CTP_pointer *pointer);
/// Moves to `x`, `y` of an output of `width` × `height` logical pixels, and waits until the
/// compositor has handled it. -1 when the connection failed.
int CTP_move(CTP_pointer *pointer, uint32_t x, uint32_t y, uint32_t width, uint32_t height);
/// Presses (`pressed` 1) or releases a button (linux/input-event-codes.h: BTN_LEFT 0x110),
/// and waits until the compositor has handled it. -1 when the connection failed.
int CTP_button(CTP_pointer *pointer, uint32_t button, int pressed);
#endif
