// SPDX-License-Identifier: MIT
// The C side of cliptab-menu's layer-shell popup, for the PopupWayland module, which alone
// imports this: libwayland-client and its core protocol, the layer-shell protocol's glue
// (wayland-scanner's output beside this header, remade by protocols/regenerate) and
// libxkbcommon with its compose tables. The requests are the scanner's static inline
// functions, compiled here by clang (they call libwayland's variadic marshaller, which Swift
// cannot); the client itself is Swift. What Swift cannot reach otherwise is below.
#ifndef CWAYLANDPOPUP_H
#define CWAYLANDPOPUP_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon-compose.h>
#include <xkbcommon/xkbcommon.h>

#include "../wlr-layer-shell-unstable-v1-client-protocol.h"

/// A memfd for a shm buffer (close-on-exec): Swift's Glibc does not export memfd_create.
static inline int CWaylandPopup_memfd(const char *name) { return memfd_create(name, MFD_CLOEXEC); }

/// The interface a global named `name` is bound as, NULL for one the popup does not use:
/// libwayland keeps the pointer, so it must be the library's own, not a copy Swift made.
static inline const struct wl_interface *CWaylandPopup_interface(const char *name) {
    const struct wl_interface *const known[] = {&wl_compositor_interface, &wl_subcompositor_interface,
                                                &wl_shm_interface,        &wl_seat_interface,
                                                &wl_output_interface,     &zwlr_layer_shell_v1_interface};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i]->name, name) == 0) return known[i];
    return NULL;
}

#endif
