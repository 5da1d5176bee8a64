// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "CWaylandPopup.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "wlr-layer-shell-unstable-v1-client-protocol.h"

enum { QUEUE = 256, OUTPUTS = 8 };

struct output {
    struct wl_output *proxy;
    uint32_t name;
    int scale;
};

struct buffer {
    struct wl_buffer *proxy;
    void *pixels;
    size_t bytes;
    int width, height, busy, fresh;
};

struct CWP_popup {
    struct wl_display *display;
    struct wl_registry *registry;
    struct wl_compositor *compositor;
    struct wl_subcompositor *subcompositor;
    struct wl_shm *shm;
    struct wl_seat *seat;
    struct zwlr_layer_shell_v1 *layer_shell;
    struct output outputs[OUTPUTS];
    int output_count;
    struct wl_keyboard *keyboard;
    struct wl_pointer *pointer;
    uint32_t capabilities;
    // The overlay (all output, transparent, holding the keyboard and catching the pointer)
    // and the menu's box on it, a subsurface: only the box's pixels are drawn and sent.
    struct wl_surface *surface;
    struct zwlr_layer_surface_v1 *layer;
    struct wl_surface *box;
    struct wl_subsurface *subsurface;
    struct buffer overlay_buffer;
    int box_x, box_y;
    struct wl_surface *pointer_surface;
    int configured, closed, width, height, scale, entered_scale;
    uint32_t configure_serial;
    int acked;
    int pointer_x, pointer_y, pointer_seen;
    struct buffer buffers[2];
    struct buffer *drawing;
    int drawing_fresh;
    CWP_event queue[QUEUE];
    int head, count;
    char error[256];
};

static void fail(CWP_popup *p, const char *format, ...) {
    va_list list;
    va_start(list, format);
    vsnprintf(p->error, sizeof p->error, format, list);
    va_end(list);
}

static void push(CWP_popup *p, CWP_event event) {
    if (p->count == QUEUE) {  // a flood of input: the oldest stay, the newest go
        if (event.kind == CWP_EVENT_KEYMAP) close(event.fd);
        return;
    }
    p->queue[(p->head + p->count) % QUEUE] = event;
    p->count++;
}

// ---- outputs -------------------------------------------------------------------------------

static void output_geometry(void *d, struct wl_output *o, int32_t x, int32_t y, int32_t pw, int32_t ph,
                            int32_t sub, const char *make, const char *model, int32_t transform) {}
static void output_mode(void *d, struct wl_output *o, uint32_t flags, int32_t w, int32_t h, int32_t r) {}
static void output_done(void *d, struct wl_output *o) {}
static void output_scale(void *data, struct wl_output *o, int32_t factor) {
    ((struct output *)data)->scale = factor > 0 ? factor : 1;
}
static const struct wl_output_listener output_listener = {output_geometry, output_mode, output_done, output_scale};

// ---- keyboard ------------------------------------------------------------------------------

// The keyboard's events go to Swift as they come (PopupKeyboard reads them with libxkbcommon):
// here they are only queued, in order, so that a key is read with the modifiers before it.

static void keyboard_keymap(void *data, struct wl_keyboard *k, uint32_t format, int32_t fd, uint32_t size) {
    if (format != WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1) {
        close(fd);
        return;
    }
    push(data, (CWP_event){.kind = CWP_EVENT_KEYMAP, .fd = fd, .values = {size}});
}
static void keyboard_enter(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s, struct wl_array *keys) {}
static void keyboard_leave(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s) {
    push(data, (CWP_event){.kind = CWP_EVENT_KEYBOARD_LEFT});
}
static void keyboard_key(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t time, uint32_t key,
                         uint32_t state) {
    push(data, (CWP_event){.kind = CWP_EVENT_KEY_CODE, .values = {key, state == WL_KEYBOARD_KEY_STATE_PRESSED}});
}
static void keyboard_modifiers(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t depressed,
                               uint32_t latched, uint32_t locked, uint32_t group) {
    push(data, (CWP_event){.kind = CWP_EVENT_MODIFIERS, .values = {depressed, latched, locked, group}});
}
static void keyboard_repeat(void *data, struct wl_keyboard *k, int32_t rate, int32_t delay) {
    push(data, (CWP_event){.kind = CWP_EVENT_REPEAT_INFO, .values = {(uint32_t)rate, (uint32_t)delay}});
}
static const struct wl_keyboard_listener keyboard_listener = {
    keyboard_keymap, keyboard_enter, keyboard_leave, keyboard_key, keyboard_modifiers, keyboard_repeat};

// ---- pointer -------------------------------------------------------------------------------

// Where the pointer is on the overlay: the box's own coordinates start at its corner.
static void pointer_at(CWP_popup *p, wl_fixed_t x, wl_fixed_t y) {
    int on_box = p->pointer_surface && p->pointer_surface == p->box;
    p->pointer_x = wl_fixed_to_int(x) + (on_box ? p->box_x : 0);
    p->pointer_y = wl_fixed_to_int(y) + (on_box ? p->box_y : 0);
}
static void pointer_enter(void *data, struct wl_pointer *ptr, uint32_t serial, struct wl_surface *s, wl_fixed_t x,
                          wl_fixed_t y) {
    CWP_popup *p = data;
    p->pointer_surface = s;
    pointer_at(p, x, y);
    p->pointer_seen = 1;
    push(p, (CWP_event){.kind = CWP_EVENT_MOTION, .x = p->pointer_x, .y = p->pointer_y});
}
static void pointer_leave(void *data, struct wl_pointer *ptr, uint32_t serial, struct wl_surface *s) {
    CWP_popup *p = data;
    if (p->pointer_surface == s) p->pointer_surface = NULL;
}
static void pointer_motion(void *data, struct wl_pointer *ptr, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
    CWP_popup *p = data;
    pointer_at(p, x, y);
    push(p, (CWP_event){.kind = CWP_EVENT_MOTION, .x = p->pointer_x, .y = p->pointer_y});
}
static void pointer_button(void *data, struct wl_pointer *ptr, uint32_t serial, uint32_t time, uint32_t button,
                           uint32_t state) {
    CWP_popup *p = data;
    if (state != WL_POINTER_BUTTON_STATE_PRESSED) return;
    // linux/input-event-codes.h: BTN_LEFT 0x110, BTN_RIGHT 0x111, BTN_MIDDLE 0x112.
    int number = button == 0x110 ? 1 : button == 0x111 ? 3 : button == 0x112 ? 2 : 0;
    if (number) push(p, (CWP_event){.kind = CWP_EVENT_BUTTON, .button = number, .x = p->pointer_x, .y = p->pointer_y});
}
static void pointer_axis(void *data, struct wl_pointer *ptr, uint32_t time, uint32_t axis, wl_fixed_t value) {
    CWP_popup *p = data;
    if (axis != WL_POINTER_AXIS_VERTICAL_SCROLL || value == 0) return;
    push(p, (CWP_event){.kind = CWP_EVENT_SCROLL, .axis = value < 0 ? -1 : 1, .x = p->pointer_x, .y = p->pointer_y});
}
static void pointer_frame(void *d, struct wl_pointer *ptr) {}
static void pointer_axis_source(void *d, struct wl_pointer *ptr, uint32_t source) {}
static void pointer_axis_stop(void *d, struct wl_pointer *ptr, uint32_t time, uint32_t axis) {}
static void pointer_axis_discrete(void *d, struct wl_pointer *ptr, uint32_t axis, int32_t discrete) {}
static const struct wl_pointer_listener pointer_listener = {
    pointer_enter, pointer_leave, pointer_motion, pointer_button, pointer_axis,
    pointer_frame, pointer_axis_source, pointer_axis_stop, pointer_axis_discrete};

// ---- seat and registry ---------------------------------------------------------------------

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities) {
    CWP_popup *p = data;
    p->capabilities = capabilities;
    // A keyboard or pointer that went away makes its proxy inert (wlroots): let it go, and
    // take a new one when the seat has one again (a keyboard plugged in, a virtual one).
    if (!(capabilities & WL_SEAT_CAPABILITY_KEYBOARD) && p->keyboard) {
        if (wl_keyboard_get_version(p->keyboard) >= 3) wl_keyboard_release(p->keyboard);
        else wl_keyboard_destroy(p->keyboard);
        p->keyboard = NULL;
        push(p, (CWP_event){.kind = CWP_EVENT_KEYBOARD_LEFT});
    }
    if (!(capabilities & WL_SEAT_CAPABILITY_POINTER) && p->pointer) {
        if (wl_pointer_get_version(p->pointer) >= 3) wl_pointer_release(p->pointer);
        else wl_pointer_destroy(p->pointer);
        p->pointer = NULL;
    }
    if ((capabilities & WL_SEAT_CAPABILITY_KEYBOARD) && !p->keyboard) {
        p->keyboard = wl_seat_get_keyboard(seat);
        wl_keyboard_add_listener(p->keyboard, &keyboard_listener, p);
    }
    if ((capabilities & WL_SEAT_CAPABILITY_POINTER) && !p->pointer) {
        p->pointer = wl_seat_get_pointer(seat);
        wl_pointer_add_listener(p->pointer, &pointer_listener, p);
    }
}
static void seat_name(void *d, struct wl_seat *seat, const char *name) {}
static const struct wl_seat_listener seat_listener = {seat_capabilities, seat_name};

static void registry_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
                            uint32_t version) {
    CWP_popup *p = data;
    if (strcmp(interface, wl_compositor_interface.name) == 0 && version >= 4) {
        p->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
    } else if (strcmp(interface, wl_subcompositor_interface.name) == 0) {
        p->subcompositor = wl_registry_bind(r, name, &wl_subcompositor_interface, 1);
    } else if (strcmp(interface, wl_shm_interface.name) == 0) {
        p->shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
    } else if (strcmp(interface, wl_seat_interface.name) == 0 && !p->seat) {
        p->seat = wl_registry_bind(r, name, &wl_seat_interface, version < 5 ? version : 5);
        wl_seat_add_listener(p->seat, &seat_listener, p);
    } else if (strcmp(interface, wl_output_interface.name) == 0 && version >= 2 && p->output_count < OUTPUTS) {
        struct output *o = &p->outputs[p->output_count++];
        o->name = name;
        o->scale = 1;
        o->proxy = wl_registry_bind(r, name, &wl_output_interface, 2);
        wl_output_add_listener(o->proxy, &output_listener, o);
    } else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0) {
        p->layer_shell = wl_registry_bind(r, name, &zwlr_layer_shell_v1_interface, version < 4 ? version : 4);
    }
}
static void registry_global_remove(void *d, struct wl_registry *r, uint32_t name) {}
static const struct wl_registry_listener registry_listener = {registry_global, registry_global_remove};

CWP_popup *CWP_connect(char *error, size_t size) {
    CWP_popup *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(error, size, "out of memory");
        return NULL;
    }
    p->scale = 1;
    p->pointer_x = p->pointer_y = -1;
    p->display = wl_display_connect(NULL);
    if (!p->display) {
        snprintf(error, size, "cannot connect to the Wayland compositor: %s", strerror(errno));
        free(p);
        return NULL;
    }
    p->registry = wl_display_get_registry(p->display);
    wl_registry_add_listener(p->registry, &registry_listener, p);
    // The globals alone: what the bound ones say at once (seat capabilities, output
    // scales) comes with the overlay's first configure, in CWP_show, without a round trip
    // of its own. The keymap comes later and is compiled only when needed.
    if (wl_display_roundtrip(p->display) < 0) {
        snprintf(error, size, "the Wayland compositor broke the connection: %s", strerror(errno));
        CWP_disconnect(p);
        return NULL;
    }
    if (!p->compositor || !p->shm || !p->subcompositor) {
        snprintf(error, size, "the Wayland compositor offers no wl_compositor 4, wl_subcompositor or wl_shm");
        CWP_disconnect(p);
        return NULL;
    }
    return p;
}

static void destroy_buffer(struct buffer *b) {
    if (b->proxy) wl_buffer_destroy(b->proxy);
    if (b->pixels) munmap(b->pixels, b->bytes);
    memset(b, 0, sizeof *b);
}

static void destroy_buffers(CWP_popup *p) {
    for (int i = 0; i < 2; i++) destroy_buffer(&p->buffers[i]);
    destroy_buffer(&p->overlay_buffer);
    p->drawing = NULL;
}

static void destroy_surface(CWP_popup *p) {
    if (p->subsurface) wl_subsurface_destroy(p->subsurface);
    if (p->box) wl_surface_destroy(p->box);
    p->subsurface = NULL;
    p->box = NULL;
    p->pointer_surface = NULL;
    if (p->layer) zwlr_layer_surface_v1_destroy(p->layer);
    if (p->surface) wl_surface_destroy(p->surface);
    p->layer = NULL;
    p->surface = NULL;
    push(p, (CWP_event){.kind = CWP_EVENT_KEYBOARD_LEFT});
    destroy_buffers(p);
}

void CWP_disconnect(CWP_popup *p) {
    if (!p) return;
    destroy_surface(p);
    if (p->keyboard) wl_keyboard_destroy(p->keyboard);
    if (p->pointer) wl_pointer_destroy(p->pointer);
    if (p->seat) wl_seat_destroy(p->seat);
    for (int i = 0; i < p->output_count; i++) wl_output_destroy(p->outputs[i].proxy);
    if (p->layer_shell) zwlr_layer_shell_v1_destroy(p->layer_shell);
    if (p->shm) wl_shm_destroy(p->shm);
    if (p->subcompositor) wl_subcompositor_destroy(p->subcompositor);
    if (p->compositor) wl_compositor_destroy(p->compositor);
    if (p->registry) wl_registry_destroy(p->registry);
    if (p->display) {
        wl_display_flush(p->display);
        wl_display_disconnect(p->display);
    }
    // A keymap's descriptor not taken yet.
    for (; p->count > 0; p->head = (p->head + 1) % QUEUE, p->count--)
        if (p->queue[p->head].kind == CWP_EVENT_KEYMAP) close(p->queue[p->head].fd);
    free(p);
}

const char *CWP_error(const CWP_popup *p) { return p->error; }
int CWP_has_layer_shell(const CWP_popup *p) { return p->layer_shell != NULL; }
int CWP_has_keyboard(const CWP_popup *p) { return (p->capabilities & WL_SEAT_CAPABILITY_KEYBOARD) != 0; }

// ---- the surface ---------------------------------------------------------------------------

static void layer_configure(void *data, struct zwlr_layer_surface_v1 *l, uint32_t serial, uint32_t w, uint32_t h) {
    CWP_popup *p = data;
    p->configure_serial = serial;
    p->acked = 0;
    if (p->configured && ((int)w != p->width || (int)h != p->height)) push(p, (CWP_event){.kind = CWP_EVENT_REDRAW});
    p->width = (int)w;
    p->height = (int)h;
    p->configured = 1;
}
static void layer_closed(void *data, struct zwlr_layer_surface_v1 *l) {
    CWP_popup *p = data;
    p->closed = 1;
    push(p, (CWP_event){.kind = CWP_EVENT_CLOSED});
}
static const struct zwlr_layer_surface_v1_listener layer_listener = {layer_configure, layer_closed};

static void surface_enter(void *data, struct wl_surface *s, struct wl_output *output) {
    CWP_popup *p = data;
    if (s != p->surface) return;
    for (int i = 0; i < p->output_count; i++) {
        if (p->outputs[i].proxy == output && p->outputs[i].scale != p->scale) {
            p->scale = p->outputs[i].scale;
            push(p, (CWP_event){.kind = CWP_EVENT_REDRAW});
        }
    }
}
static void surface_leave(void *d, struct wl_surface *s, struct wl_output *o) {}
static const struct wl_surface_listener surface_listener = {surface_enter, surface_leave};

int CWP_show(CWP_popup *p, const char *name_space) {
    if (!p->layer_shell) {
        fail(p, "the Wayland compositor offers no zwlr_layer_shell_v1");
        return -1;
    }
    destroy_surface(p);
    p->configured = 0;
    p->surface = wl_compositor_create_surface(p->compositor);
    wl_surface_add_listener(p->surface, &surface_listener, p);
    p->layer = zwlr_layer_shell_v1_get_layer_surface(p->layer_shell, p->surface, NULL,
                                                     ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY, name_space);
    zwlr_layer_surface_v1_add_listener(p->layer, &layer_listener, p);
    zwlr_layer_surface_v1_set_anchor(p->layer, ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM |
                                                   ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT |
                                                   ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT);
    zwlr_layer_surface_v1_set_size(p->layer, 0, 0);
    zwlr_layer_surface_v1_set_exclusive_zone(p->layer, -1);
    zwlr_layer_surface_v1_set_keyboard_interactivity(p->layer, ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE);
    wl_surface_commit(p->surface);
    p->box = wl_compositor_create_surface(p->compositor);
    wl_surface_add_listener(p->box, &surface_listener, p);
    p->subsurface = wl_subcompositor_get_subsurface(p->subcompositor, p->box, p->surface);
    while (!p->configured && !p->closed) {
        if (wl_display_dispatch(p->display) < 0) {
            fail(p, "the Wayland compositor broke the connection: %s", strerror(errno));
            return -1;
        }
    }
    // Until the surface enters an output, the largest scale: never blurry, at worst too fine.
    // (The outputs said theirs before this configure came.)
    p->scale = 1;
    for (int i = 0; i < p->output_count; i++)
        if (p->outputs[i].scale > p->scale) p->scale = p->outputs[i].scale;
    if (p->closed || p->width <= 0 || p->height <= 0) {
        fail(p, "the Wayland compositor closed the popup before showing it");
        return -1;
    }
    return 0;
}

int CWP_hide(CWP_popup *p) {
    if (!p->surface) return 0;
    destroy_surface(p);
    if (wl_display_roundtrip(p->display) < 0) {
        fail(p, "the Wayland compositor broke the connection: %s", strerror(errno));
        return -1;
    }
    return 0;
}

void CWP_size(const CWP_popup *p, int *width, int *height, int *scale) {
    *width = p->width;
    *height = p->height;
    *scale = p->scale;
}

void CWP_pointer(const CWP_popup *p, int *x, int *y) {
    *x = p->pointer_seen ? p->pointer_x : -1;
    *y = p->pointer_seen ? p->pointer_y : -1;
}

// ---- buffers -------------------------------------------------------------------------------

static void buffer_release(void *data, struct wl_buffer *b) { ((struct buffer *)data)->busy = 0; }
static const struct wl_buffer_listener buffer_listener = {buffer_release};

// A buffer whose pixels this side never touches (`mapped` 0: the overlay's, all zeros) is
// not mapped here at all.
static int make_buffer(CWP_popup *p, struct buffer *b, int width, int height, int mapped) {
    size_t stride = (size_t)width * 4, bytes = stride * (size_t)height;
    int fd = memfd_create("cliptab-menu", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) {
        fail(p, "memfd_create: %s", strerror(errno));
        return -1;
    }
    if (ftruncate(fd, (off_t)bytes) < 0) {
        fail(p, "cannot size a %zu-byte buffer: %s", bytes, strerror(errno));
        close(fd);
        return -1;
    }
    void *pixels = mapped ? mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : NULL;
    if (pixels == MAP_FAILED) {
        fail(p, "mmap of a %zu-byte buffer: %s", bytes, strerror(errno));
        close(fd);
        return -1;
    }
    struct wl_shm_pool *pool = wl_shm_create_pool(p->shm, fd, (int32_t)bytes);
    b->proxy = wl_shm_pool_create_buffer(pool, 0, width, height, (int32_t)stride, WL_SHM_FORMAT_ARGB8888);
    wl_shm_pool_destroy(pool);
    close(fd);
    wl_buffer_add_listener(b->proxy, &buffer_listener, b);
    b->pixels = pixels;
    b->bytes = bytes;
    b->width = width;
    b->height = height;
    b->busy = 0;
    b->fresh = 1;
    return 0;
}

void *CWP_begin_frame(CWP_popup *p, int box_width, int box_height, int *width, int *height, int *stride) {
    if (!p->surface) {
        fail(p, "no popup is shown");
        return NULL;
    }
    if (box_width < 1) box_width = 1;
    if (box_height < 1) box_height = 1;
    int w = box_width * p->scale, h = box_height * p->scale;
    struct buffer *chosen = NULL;
    for (int i = 0; i < 2 && !chosen; i++)
        if (!p->buffers[i].busy) chosen = &p->buffers[i];
    if (!chosen) {
        // Both are still the compositor's: wait until it gives one back.
        while (p->buffers[0].busy && p->buffers[1].busy) {
            if (wl_display_dispatch(p->display) < 0) {
                fail(p, "the Wayland compositor broke the connection: %s", strerror(errno));
                return NULL;
            }
        }
        chosen = p->buffers[0].busy ? &p->buffers[1] : &p->buffers[0];
    }
    if (chosen->proxy && (chosen->width != w || chosen->height != h)) {
        wl_buffer_destroy(chosen->proxy);
        munmap(chosen->pixels, chosen->bytes);
        memset(chosen, 0, sizeof *chosen);
    }
    if (!chosen->proxy && make_buffer(p, chosen, w, h, 1) < 0) return NULL;
    p->drawing = chosen;
    p->drawing_fresh = chosen->fresh;
    chosen->fresh = 0;
    *width = w;
    *height = h;
    *stride = w * 4;
    return chosen->pixels;
}

int CWP_end_frame(CWP_popup *p, int x, int y) {
    struct buffer *b = p->drawing;
    if (!b || !p->surface) {
        fail(p, "no frame was begun");
        return -1;
    }
    // The overlay's own buffer is never drawn: all zeros, transparent, untouched here (the
    // compositor alone reads it). It changes only with the overlay's size.
    struct buffer *overlay = &p->overlay_buffer;
    int resized = !overlay->proxy || overlay->width != p->width || overlay->height != p->height;
    if (resized) {
        destroy_buffer(overlay);
        if (make_buffer(p, overlay, p->width, p->height, 0) < 0) return -1;
    }
    if (!p->acked) {
        zwlr_layer_surface_v1_ack_configure(p->layer, p->configure_serial);
        p->acked = 1;
    }
    // The box's state is applied with the overlay's commit (a synchronized subsurface).
    wl_surface_set_buffer_scale(p->box, p->scale);
    wl_surface_attach(p->box, b->proxy, 0, 0);
    wl_surface_damage_buffer(p->box, 0, 0, b->width, b->height);
    wl_surface_commit(p->box);
    wl_subsurface_set_position(p->subsurface, x, y);
    p->box_x = x;
    p->box_y = y;
    if (resized) {
        wl_surface_attach(p->surface, overlay->proxy, 0, 0);
        wl_surface_damage_buffer(p->surface, 0, 0, overlay->width, overlay->height);
    }
    wl_surface_commit(p->surface);
    b->busy = 1;
    p->drawing = NULL;
    if (wl_display_flush(p->display) < 0 && errno != EAGAIN) {
        fail(p, "the Wayland compositor broke the connection: %s", strerror(errno));
        return -1;
    }
    return 0;
}

// ---- the loop ------------------------------------------------------------------------------

int CWP_before_poll(CWP_popup *p) {
    while (wl_display_prepare_read(p->display) != 0) {
        if (wl_display_dispatch_pending(p->display) < 0) {
            fail(p, "the Wayland compositor broke the connection: %s", strerror(errno));
            return -1;
        }
    }
    if (wl_display_flush(p->display) < 0 && errno != EAGAIN) {
        wl_display_cancel_read(p->display);
        fail(p, "the Wayland compositor broke the connection: %s", strerror(errno));
        return -1;
    }
    return wl_display_get_fd(p->display);
}

int CWP_after_poll(CWP_popup *p, int readable) {
    if (readable) {
        if (wl_display_read_events(p->display) < 0) {
            fail(p, "the Wayland compositor broke the connection: %s", strerror(errno));
            return -1;
        }
    } else {
        wl_display_cancel_read(p->display);
    }
    if (wl_display_dispatch_pending(p->display) < 0) {
        fail(p, "the Wayland compositor broke the connection: %s", strerror(errno));
        return -1;
    }
    return 0;
}

int CWP_next_event(CWP_popup *p, CWP_event *event) {
    if (p->count == 0) return 0;
    *event = p->queue[p->head];
    p->head = (p->head + 1) % QUEUE;
    p->count--;
    return 1;
}

int CWP_is_shown(const CWP_popup *p) { return p->surface != NULL; }

int CWP_frame_is_fresh(const CWP_popup *p) { return p->drawing_fresh; }
