// SPDX-License-Identifier: MIT
#include "CTestPointer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

// zwlr_virtual_pointer_manager_v1 and zwlr_virtual_pointer_v1 (wlr-protocols, unstable v1),
// as wayland-scanner would describe them: only their requests, in their wire order. The
// test uses create_virtual_pointer, motion_absolute, button, frame and destroy.
static const struct wl_interface *no_types[] = {NULL, NULL, NULL, NULL, NULL};
extern const struct wl_interface zwlr_virtual_pointer_v1_interface;
static const struct wl_interface *create_types[] = {&wl_seat_interface, &zwlr_virtual_pointer_v1_interface};

static const struct wl_message pointer_requests[] = {
    {"motion", "uff", no_types},
    {"motion_absolute", "uuuuu", no_types},
    {"button", "uuu", no_types},
    {"axis", "uuf", no_types},
    {"frame", "", no_types},
    {"axis_source", "u", no_types},
    {"axis_stop", "uu", no_types},
    {"axis_discrete", "uufi", no_types},
    {"destroy", "", no_types},
};
const struct wl_interface zwlr_virtual_pointer_v1_interface = {"zwlr_virtual_pointer_v1", 1, 9, pointer_requests, 0,
                                                               NULL};
static const struct wl_message manager_requests[] = {
    {"create_virtual_pointer", "?on", create_types},
};
static const struct wl_interface manager_interface = {"zwlr_virtual_pointer_manager_v1", 1, 1, manager_requests, 0,
                                                      NULL};
enum { MOTION_ABSOLUTE = 1, BUTTON = 2, FRAME = 4, DESTROY = 8, CREATE = 0 };

struct CTP_pointer {
    struct wl_display *display;
    struct wl_registry *registry;
    struct wl_seat *seat;
    struct wl_proxy *manager;
    struct wl_proxy *pointer;
};

static void global(void *data, struct wl_registry *r, uint32_t name, const char *interface, uint32_t version) {
    CTP_pointer *p = data;
    if (strcmp(interface, wl_seat_interface.name) == 0 && !p->seat) {
        p->seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
    } else if (strcmp(interface, manager_interface.name) == 0) {
        p->manager = wl_registry_bind(r, name, &manager_interface, 1);
    }
}
static void global_remove(void *d, struct wl_registry *r, uint32_t name) {}
static const struct wl_registry_listener registry_listener = {global, global_remove};

static uint32_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint32_t)(t.tv_sec * 1000 + t.tv_nsec / 1000000);
}

CTP_pointer *CTP_connect(const char *display, char *error, size_t size) {
    CTP_pointer *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(error, size, "out of memory");
        return NULL;
    }
    p->display = wl_display_connect(display);
    if (!p->display) {
        snprintf(error, size, "cannot connect to %s: %s", display, strerror(errno));
        free(p);
        return NULL;
    }
    p->registry = wl_display_get_registry(p->display);
    wl_registry_add_listener(p->registry, &registry_listener, p);
    if (wl_display_roundtrip(p->display) < 0 || !p->seat || !p->manager) {
        snprintf(error, size, "the compositor offers no wl_seat or zwlr_virtual_pointer_manager_v1");
        CTP_disconnect(p);
        return NULL;
    }
    p->pointer = wl_proxy_marshal_flags(p->manager, CREATE, &zwlr_virtual_pointer_v1_interface, 1, 0,
                                        (struct wl_proxy *)p->seat, NULL);
    if (!p->pointer || wl_display_roundtrip(p->display) < 0) {
        snprintf(error, size, "the compositor made no virtual pointer");
        CTP_disconnect(p);
        return NULL;
    }
    return p;
}

void CTP_disconnect(CTP_pointer *p) {
    if (!p) return;
    if (p->pointer) wl_proxy_marshal_flags(p->pointer, DESTROY, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
    if (p->manager) wl_proxy_destroy(p->manager);
    if (p->seat) wl_seat_destroy(p->seat);
    if (p->registry) wl_registry_destroy(p->registry);
    if (p->display) {
        wl_display_roundtrip(p->display);
        wl_display_disconnect(p->display);
    }
    free(p);
}

int CTP_move(CTP_pointer *p, uint32_t x, uint32_t y, uint32_t width, uint32_t height) {
    wl_proxy_marshal_flags(p->pointer, MOTION_ABSOLUTE, NULL, 1, 0, now_ms(), x, y, width, height);
    wl_proxy_marshal_flags(p->pointer, FRAME, NULL, 1, 0);
    return wl_display_roundtrip(p->display) < 0 ? -1 : 0;
}

int CTP_button(CTP_pointer *p, uint32_t button, int pressed) {
    wl_proxy_marshal_flags(p->pointer, BUTTON, NULL, 1, 0, now_ms(), button, pressed ? 1 : 0);
    wl_proxy_marshal_flags(p->pointer, FRAME, NULL, 1, 0);
    return wl_display_roundtrip(p->display) < 0 ? -1 : 0;
}
