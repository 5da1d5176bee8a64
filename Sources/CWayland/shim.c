// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "CWayland.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xkbcommon/xkbcommon.h>

#include "ext-data-control-v1-client-protocol.h"
#include "virtual-keyboard-unstable-v1-client-protocol.h"
#include "wlr-data-control-unstable-v1-client-protocol.h"
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"

// The two protocols share one set of opcodes: these are what lets one code path serve both.
_Static_assert(ZWLR_DATA_CONTROL_MANAGER_V1_CREATE_DATA_SOURCE == EXT_DATA_CONTROL_MANAGER_V1_CREATE_DATA_SOURCE, "");
_Static_assert(ZWLR_DATA_CONTROL_MANAGER_V1_GET_DATA_DEVICE == EXT_DATA_CONTROL_MANAGER_V1_GET_DATA_DEVICE, "");
_Static_assert(ZWLR_DATA_CONTROL_MANAGER_V1_DESTROY == EXT_DATA_CONTROL_MANAGER_V1_DESTROY, "");
_Static_assert(ZWLR_DATA_CONTROL_DEVICE_V1_SET_SELECTION == EXT_DATA_CONTROL_DEVICE_V1_SET_SELECTION, "");
_Static_assert(ZWLR_DATA_CONTROL_DEVICE_V1_SET_PRIMARY_SELECTION == EXT_DATA_CONTROL_DEVICE_V1_SET_PRIMARY_SELECTION, "");
_Static_assert(ZWLR_DATA_CONTROL_DEVICE_V1_DESTROY == EXT_DATA_CONTROL_DEVICE_V1_DESTROY, "");
_Static_assert(ZWLR_DATA_CONTROL_SOURCE_V1_OFFER == EXT_DATA_CONTROL_SOURCE_V1_OFFER, "");
_Static_assert(ZWLR_DATA_CONTROL_SOURCE_V1_DESTROY == EXT_DATA_CONTROL_SOURCE_V1_DESTROY, "");
_Static_assert(ZWLR_DATA_CONTROL_OFFER_V1_RECEIVE == EXT_DATA_CONTROL_OFFER_V1_RECEIVE, "");
_Static_assert(ZWLR_DATA_CONTROL_OFFER_V1_DESTROY == EXT_DATA_CONTROL_OFFER_V1_DESTROY, "");
_Static_assert(sizeof(CWayland_device_listener) == sizeof(struct zwlr_data_control_device_v1_listener), "");
_Static_assert(sizeof(CWayland_device_listener) == sizeof(struct ext_data_control_device_v1_listener), "");
_Static_assert(sizeof(CWayland_source_listener) == sizeof(struct zwlr_data_control_source_v1_listener), "");
_Static_assert(sizeof(CWayland_offer_listener) == sizeof(struct zwlr_data_control_offer_v1_listener), "");

const CWayland_protocol CWayland_ext_data_control = {
    &ext_data_control_manager_v1_interface, &ext_data_control_device_v1_interface,
    &ext_data_control_source_v1_interface, &ext_data_control_offer_v1_interface, 1, 1};
const CWayland_protocol CWayland_wlr_data_control = {
    &zwlr_data_control_manager_v1_interface, &zwlr_data_control_device_v1_interface,
    &zwlr_data_control_source_v1_interface, &zwlr_data_control_offer_v1_interface, 2, 2};

struct wl_proxy *CWayland_display_get_registry(struct wl_display *display) {
    return (struct wl_proxy *)wl_display_get_registry(display);
}

struct wl_proxy *CWayland_display_sync(struct wl_display *display) {
    return (struct wl_proxy *)wl_display_sync(display);
}

struct wl_proxy *CWayland_registry_bind(
    struct wl_proxy *registry, uint32_t name, const struct wl_interface *interface, uint32_t version) {
    return wl_registry_bind((struct wl_registry *)registry, name, interface, version);
}

const struct wl_interface *CWayland_seat_interface(void) { return &wl_seat_interface; }

void CWayland_seat_release(struct wl_proxy *seat) {
    if (wl_proxy_get_version(seat) >= WL_SEAT_RELEASE_SINCE_VERSION) {
        wl_seat_release((struct wl_seat *)seat);
    } else {
        wl_seat_destroy((struct wl_seat *)seat);
    }
}

struct wl_proxy *CWayland_seat_get_keyboard(struct wl_proxy *seat) {
    return (struct wl_proxy *)wl_seat_get_keyboard((struct wl_seat *)seat);
}

void CWayland_keyboard_release(struct wl_proxy *keyboard) {
    if (wl_proxy_get_version(keyboard) >= WL_KEYBOARD_RELEASE_SINCE_VERSION) {
        wl_keyboard_release((struct wl_keyboard *)keyboard);
    } else {
        wl_keyboard_destroy((struct wl_keyboard *)keyboard);
    }
}

int CWayland_seat_has_keyboard(uint32_t capabilities) { return (capabilities & WL_SEAT_CAPABILITY_KEYBOARD) != 0; }

int CWayland_keymap_format_is_xkb_v1(uint32_t format) { return format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1; }

_Static_assert(sizeof(CWayland_seat_listener) == sizeof(struct wl_seat_listener), "");
_Static_assert(sizeof(CWayland_keyboard_listener) == sizeof(struct wl_keyboard_listener), "");

#define ADD_LISTENER(kind, type)                                                              \
    int CWayland_##kind##_add_listener(struct wl_proxy *proxy, const type *listener, void *data) { \
        return wl_proxy_add_listener(proxy, (void (**)(void))listener, data);                 \
    }
ADD_LISTENER(registry, CWayland_registry_listener)
ADD_LISTENER(callback, CWayland_callback_listener)
ADD_LISTENER(device, CWayland_device_listener)
ADD_LISTENER(source, CWayland_source_listener)
ADD_LISTENER(offer, CWayland_offer_listener)
ADD_LISTENER(seat, CWayland_seat_listener)
ADD_LISTENER(keyboard, CWayland_keyboard_listener)

struct wl_proxy *CWayland_manager_create_data_source(struct wl_proxy *manager, const CWayland_protocol *protocol) {
    return wl_proxy_marshal_flags(
        manager, ZWLR_DATA_CONTROL_MANAGER_V1_CREATE_DATA_SOURCE, protocol->source, wl_proxy_get_version(manager), 0,
        NULL);
}

struct wl_proxy *CWayland_manager_get_data_device(
    struct wl_proxy *manager, const CWayland_protocol *protocol, struct wl_proxy *seat) {
    return wl_proxy_marshal_flags(
        manager, ZWLR_DATA_CONTROL_MANAGER_V1_GET_DATA_DEVICE, protocol->device, wl_proxy_get_version(manager), 0,
        NULL, seat);
}

void CWayland_manager_destroy(struct wl_proxy *manager) {
    wl_proxy_marshal_flags(
        manager, ZWLR_DATA_CONTROL_MANAGER_V1_DESTROY, NULL, wl_proxy_get_version(manager), WL_MARSHAL_FLAG_DESTROY);
}

void CWayland_device_set_selection(struct wl_proxy *device, struct wl_proxy *source, int primary) {
    uint32_t opcode =
        primary ? ZWLR_DATA_CONTROL_DEVICE_V1_SET_PRIMARY_SELECTION : ZWLR_DATA_CONTROL_DEVICE_V1_SET_SELECTION;
    wl_proxy_marshal_flags(device, opcode, NULL, wl_proxy_get_version(device), 0, source);
}

void CWayland_device_destroy(struct wl_proxy *device) {
    wl_proxy_marshal_flags(
        device, ZWLR_DATA_CONTROL_DEVICE_V1_DESTROY, NULL, wl_proxy_get_version(device), WL_MARSHAL_FLAG_DESTROY);
}

void CWayland_source_offer(struct wl_proxy *source, const char *mime_type) {
    wl_proxy_marshal_flags(source, ZWLR_DATA_CONTROL_SOURCE_V1_OFFER, NULL, wl_proxy_get_version(source), 0, mime_type);
}

void CWayland_source_destroy(struct wl_proxy *source) {
    wl_proxy_marshal_flags(
        source, ZWLR_DATA_CONTROL_SOURCE_V1_DESTROY, NULL, wl_proxy_get_version(source), WL_MARSHAL_FLAG_DESTROY);
}

void CWayland_offer_receive(struct wl_proxy *offer, const char *mime_type, int32_t fd) {
    wl_proxy_marshal_flags(
        offer, ZWLR_DATA_CONTROL_OFFER_V1_RECEIVE, NULL, wl_proxy_get_version(offer), 0, mime_type, fd);
}

void CWayland_offer_destroy(struct wl_proxy *offer) {
    wl_proxy_marshal_flags(
        offer, ZWLR_DATA_CONTROL_OFFER_V1_DESTROY, NULL, wl_proxy_get_version(offer), WL_MARSHAL_FLAG_DESTROY);
}

int CWayland_pipe(int fds[2]) {
    // The write end goes to the owner, which may write as if it blocked (GLFW stops at the
    // first EAGAIN): only the end we read from may be non-blocking.
    if (pipe2(fds, O_CLOEXEC) < 0) return -1;
    if (CWayland_set_nonblocking(fds[0]) < 0) {
        int saved = errno;
        close(fds[0]);
        close(fds[1]);
        errno = saved;
        return -1;
    }
    return 0;
}

int CWayland_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

ssize_t CWayland_write_nosignal(int fd, const void *bytes, size_t count) {
    // Block SIGPIPE in this thread for the write, then take back a SIGPIPE the write raised
    // (unless one was already pending), so that a closed reader costs only an EPIPE.
    sigset_t pipe_only, old_mask, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &old_mask);
    ssize_t written = write(fd, bytes, count);
    int saved = errno;
    if (written < 0 && saved == EPIPE && !was_pending) {
        struct timespec none = {0, 0};
        while (sigtimedwait(&pipe_only, NULL, &none) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    errno = saved;
    return written;
}

int CWayland_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int CWayland_epoll_watch(int epoll, int fd, int writable, int modify) {
    struct epoll_event event = {0};
    event.events = writable == 0 ? EPOLLIN : writable == 1 ? EPOLLOUT : (EPOLLIN | EPOLLOUT);
    event.data.fd = fd;
    return epoll_ctl(epoll, modify ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &event);
}

int CWayland_epoll_unwatch(int epoll, int fd) { return epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL); }

int CWayland_epoll_ready(int epoll, int *fds, int capacity, int timeout) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count;
    do {
        count = epoll_wait(epoll, events, capacity, timeout);
    } while (count < 0 && errno == EINTR);
    for (int i = 0; i < count; i++) fds[i] = events[i].data.fd;
    return count;
}

const struct wl_interface *CWayland_virtual_keyboard_manager_interface(void) {
    return &zwp_virtual_keyboard_manager_v1_interface;
}

struct wl_proxy *CWayland_virtual_keyboard_create(struct wl_proxy *manager, struct wl_proxy *seat) {
    return (struct wl_proxy *)zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(
        (struct zwp_virtual_keyboard_manager_v1 *)manager, (struct wl_seat *)seat);
}

void CWayland_virtual_keyboard_keymap(struct wl_proxy *keyboard, int32_t fd, uint32_t size) {
    zwp_virtual_keyboard_v1_keymap(
        (struct zwp_virtual_keyboard_v1 *)keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, size);
}

void CWayland_virtual_keyboard_key(struct wl_proxy *keyboard, uint32_t time, uint32_t key, uint32_t pressed) {
    zwp_virtual_keyboard_v1_key((struct zwp_virtual_keyboard_v1 *)keyboard, time, key, pressed);
}

void CWayland_virtual_keyboard_modifiers(
    struct wl_proxy *keyboard, uint32_t depressed, uint32_t latched, uint32_t locked, uint32_t group) {
    zwp_virtual_keyboard_v1_modifiers((struct zwp_virtual_keyboard_v1 *)keyboard, depressed, latched, locked, group);
}

void CWayland_virtual_keyboard_destroy(struct wl_proxy *keyboard) {
    zwp_virtual_keyboard_v1_destroy((struct zwp_virtual_keyboard_v1 *)keyboard);
}

struct CWayland_keymap {
    struct xkb_context *context;
    struct xkb_keymap *keymap;
    int32_t fd;
    uint32_t size;
};

static const char *nonempty(const char *text) { return text && *text ? text : NULL; }

// The keymap's text in a memfd sealed against change: the compositor maps it (read only)
// in each client it sends it to; -1 and errno on failure.
static int sealed_memfd(const char *text, size_t size) {
    int fd = memfd_create("cliptab-keymap", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t count = write(fd, text + done, size - done);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) {
            int saved = count < 0 ? errno : EIO;
            close(fd);
            errno = saved;
            return -1;
        }
        done += (size_t)count;
    }
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

// Compiles `keymap` into `result` (its context made): the text it would upload, in a
// sealed memfd of its own. 0, or -1 with errno and *stage.
static int keymap_finish(CWayland_keymap *result, const char **stage) {
    char *text = NULL;
    if (result->keymap) {
        *stage = "text";
        text = xkb_keymap_get_as_string(result->keymap, XKB_KEYMAP_FORMAT_TEXT_V1);
    }
    if (text) {
        *stage = "memfd";
        size_t size = strlen(text) + 1;
        result->fd = sealed_memfd(text, size);
        result->size = (uint32_t)size;
        free(text);
    }
    if (result->fd < 0) return -1;
    *stage = NULL;
    return 0;
}

CWayland_keymap *CWayland_keymap_new_from_fd(int32_t fd, uint32_t size, const char **stage) {
    // A compositor's keymap is some 60 KiB; anything past 4 MiB is not one.
    *stage = "size";
    if (size == 0 || size > (4u << 20)) {
        errno = EFBIG;
        return NULL;
    }
    CWayland_keymap *result = calloc(1, sizeof *result);
    *stage = "memory";
    if (!result) return NULL;
    result->fd = -1;
    *stage = "map";
    // Private: from version 7 on the compositor may hand out a descriptor mapped read-only.
    char *mapped = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) {
        int saved = errno;
        free(result);
        errno = saved;
        return NULL;
    }
    *stage = "context";
    errno = 0;
    result->context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    if (result->context) {
        *stage = "compile";
        result->keymap = xkb_keymap_new_from_buffer(
            result->context, mapped, strnlen(mapped, size), XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS);
    }
    munmap(mapped, size);
    if (!result->keymap && errno == 0) errno = EINVAL;
    if (keymap_finish(result, stage) < 0) {
        int saved = errno ? errno : EINVAL;
        CWayland_keymap_free(result);
        errno = saved;
        return NULL;
    }
    return result;
}

CWayland_keymap *CWayland_keymap_new(
    const char *rules, const char *model, const char *layout, const char *variant, const char *options,
    const char **stage) {
    CWayland_keymap *result = calloc(1, sizeof *result);
    *stage = "memory";
    if (!result) return NULL;
    result->fd = -1;
    struct xkb_rule_names names = {
        nonempty(rules), nonempty(model), nonempty(layout), nonempty(variant), nonempty(options)};
    *stage = "context";
    result->context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    if (result->context) {
        *stage = "compile";
        result->keymap = xkb_keymap_new_from_names(result->context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
    }
    if (keymap_finish(result, stage) < 0) {
        int saved = errno;
        CWayland_keymap_free(result);
        errno = saved;
        return NULL;
    }
    return result;
}

void CWayland_keymap_free(CWayland_keymap *keymap) {
    if (!keymap) return;
    if (keymap->fd >= 0) close(keymap->fd);
    if (keymap->keymap) xkb_keymap_unref(keymap->keymap);
    if (keymap->context) xkb_context_unref(keymap->context);
    free(keymap);
}

int32_t CWayland_keymap_fd(const CWayland_keymap *keymap) { return keymap->fd; }
uint32_t CWayland_keymap_size(const CWayland_keymap *keymap) { return keymap->size; }

uint32_t CWayland_keymap_key_count(const CWayland_keymap *keymap) {
    uint32_t count = 0;
    xkb_keycode_t min = xkb_keymap_min_keycode(keymap->keymap), max = xkb_keymap_max_keycode(keymap->keymap);
    for (xkb_keycode_t code = min; code <= max; code++) {
        const xkb_keysym_t *syms;
        if (xkb_keymap_num_layouts_for_key(keymap->keymap, code) > 0 &&
            xkb_keymap_key_get_syms_by_level(keymap->keymap, code, 0, 0, &syms) > 0)
            count++;
    }
    return count;
}

uint32_t CWayland_keymap_layout_count(const CWayland_keymap *keymap) {
    return xkb_keymap_num_layouts(keymap->keymap);
}

int32_t CWayland_keymap_key_for(const CWayland_keymap *keymap, uint32_t keysym, int32_t *level, uint32_t *layout) {
    xkb_keycode_t min = xkb_keymap_min_keycode(keymap->keymap), max = xkb_keymap_max_keycode(keymap->keymap);
    xkb_layout_index_t layouts = xkb_keymap_num_layouts(keymap->keymap);
    // A Latin letter is found in a second layout (us beside ru) when the first has none.
    for (xkb_layout_index_t group = 0; group < layouts; group++) {
        for (int32_t wanted = 0; wanted < 2; wanted++) {
            for (xkb_keycode_t code = min; code <= max; code++) {
                if (code < 8 || xkb_keymap_num_layouts_for_key(keymap->keymap, code) <= group) continue;
                const xkb_keysym_t *syms;
                int count =
                    xkb_keymap_key_get_syms_by_level(keymap->keymap, code, group, (xkb_level_index_t)wanted, &syms);
                if (count == 1 && syms[0] == keysym) {
                    *level = wanted;
                    *layout = group;
                    return (int32_t)(code - 8);
                }
            }
        }
    }
    return -1;
}

uint32_t CWayland_keymap_mod_mask(const CWayland_keymap *keymap, const char *name) {
    xkb_mod_index_t index = xkb_keymap_mod_get_index(keymap->keymap, name);
    return index == XKB_MOD_INVALID ? 0 : (uint32_t)1 << index;
}

// One window of the foreign-toplevel manager: what its last `done` said, and what is
// pending for the next.
struct toplevel {
    struct zwlr_foreign_toplevel_handle_v1 *handle;
    char *app_id, *pending_app_id;
    int activated, pending_activated;
    struct CWayland_toplevels *owner;
    struct toplevel *next;
};

struct CWayland_toplevels {
    struct zwlr_foreign_toplevel_manager_v1 *manager;
    struct toplevel *first;
    uint32_t count;
};

const char *CWayland_toplevels_interface_name(void) { return zwlr_foreign_toplevel_manager_v1_interface.name; }
uint32_t CWayland_toplevels_version(void) { return 3; }

static void toplevel_free(struct toplevel *window) {
    zwlr_foreign_toplevel_handle_v1_destroy(window->handle);
    free(window->app_id);
    free(window->pending_app_id);
    free(window);
}

static void handle_title(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, const char *title) {}

static void handle_app_id(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, const char *app_id) {
    struct toplevel *window = data;
    free(window->pending_app_id);
    window->pending_app_id = strdup(app_id ? app_id : "");
}

static void handle_output(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct wl_output *output) {}

static void handle_state(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct wl_array *state) {
    struct toplevel *window = data;
    window->pending_activated = 0;
    uint32_t *entry;
    wl_array_for_each(entry, state) {
        if (*entry == ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED) window->pending_activated = 1;
    }
}

static void handle_done(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle) {
    struct toplevel *window = data;
    window->activated = window->pending_activated;
    if (window->pending_app_id) {
        free(window->app_id);
        window->app_id = window->pending_app_id;
        window->pending_app_id = NULL;
    }
}

static void handle_closed(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle) {
    struct toplevel *window = data;
    CWayland_toplevels *toplevels = window->owner;
    for (struct toplevel **link = &toplevels->first; *link; link = &(*link)->next) {
        if (*link == window) {
            *link = window->next;
            toplevels->count--;
            break;
        }
    }
    toplevel_free(window);
}

static void handle_parent(
    void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct zwlr_foreign_toplevel_handle_v1 *parent) {}

static const struct zwlr_foreign_toplevel_handle_v1_listener toplevel_listener = {
    handle_title, handle_app_id, handle_output, handle_output, handle_state, handle_done, handle_closed,
    handle_parent};

static void manager_toplevel(
    void *data, struct zwlr_foreign_toplevel_manager_v1 *manager, struct zwlr_foreign_toplevel_handle_v1 *handle) {
    CWayland_toplevels *toplevels = data;
    struct toplevel *window = calloc(1, sizeof *window);
    if (!window) {
        // Out of memory: the window is not followed (its events go nowhere).
        zwlr_foreign_toplevel_handle_v1_destroy(handle);
        return;
    }
    window->handle = handle;
    window->owner = toplevels;
    window->next = toplevels->first;
    toplevels->first = window;
    toplevels->count++;
    zwlr_foreign_toplevel_handle_v1_add_listener(handle, &toplevel_listener, window);
}

static void manager_finished(void *data, struct zwlr_foreign_toplevel_manager_v1 *manager) {
    CWayland_toplevels *toplevels = data;
    // The compositor destroyed the manager: only the proxy is left to free.
    wl_proxy_destroy((struct wl_proxy *)toplevels->manager);
    toplevels->manager = NULL;
}

static const struct zwlr_foreign_toplevel_manager_v1_listener manager_listener = {manager_toplevel, manager_finished};

CWayland_toplevels *CWayland_toplevels_bind(struct wl_proxy *registry, uint32_t name, uint32_t version) {
    CWayland_toplevels *toplevels = calloc(1, sizeof *toplevels);
    if (!toplevels) return NULL;
    toplevels->manager =
        wl_registry_bind((struct wl_registry *)registry, name, &zwlr_foreign_toplevel_manager_v1_interface, version);
    if (!toplevels->manager) {
        free(toplevels);
        return NULL;
    }
    zwlr_foreign_toplevel_manager_v1_add_listener(toplevels->manager, &manager_listener, toplevels);
    return toplevels;
}

void CWayland_toplevels_free(CWayland_toplevels *toplevels) {
    if (!toplevels) return;
    while (toplevels->first) {
        struct toplevel *window = toplevels->first;
        toplevels->first = window->next;
        toplevel_free(window);
    }
    if (toplevels->manager) {
        // stop asks for `finished`, which will not be read: the proxy goes at once.
        zwlr_foreign_toplevel_manager_v1_stop(toplevels->manager);
        wl_proxy_destroy((struct wl_proxy *)toplevels->manager);
    }
    free(toplevels);
}

const char *CWayland_toplevels_activated_app_id(const CWayland_toplevels *toplevels) {
    for (const struct toplevel *window = toplevels->first; window; window = window->next) {
        if (window->activated) return window->app_id ? window->app_id : "";
    }
    return NULL;
}

uint32_t CWayland_toplevels_count(const CWayland_toplevels *toplevels) { return toplevels->count; }
