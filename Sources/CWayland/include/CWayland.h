// SPDX-License-Identifier: MIT
// libwayland-client and the data-control protocols for the WaylandDesktop module, which
// alone imports this. ext-data-control-v1 and wlr-data-control-unstable-v1 have the same
// requests and events in the same order; only their interface names (and the version that
// brings the primary selection) differ. So one set of calls serves both: the protocol is
// chosen once, when the manager is bound, and every object made from it inherits it.
// Requests are marshalled here because Swift cannot call libwayland's variadic marshaller.
#ifndef CWAYLAND_H
#define CWAYLAND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <wayland-client.h>

/// One of the two data-control protocols: its interfaces and versions.
typedef struct CWayland_protocol {
    /// The manager's global interface (its name is what the registry announces).
    const struct wl_interface *manager;
    /// The interfaces of the objects the manager makes.
    const struct wl_interface *device, *source, *offer;
    /// The highest manager version cliptab speaks, and the one that has the primary selection.
    uint32_t version, primary_version;
} CWayland_protocol;

/// ext_data_control_manager_v1 (ext-data-control-v1, version 1 has the primary selection).
extern const CWayland_protocol CWayland_ext_data_control;
/// zwlr_data_control_manager_v1 (wlr-data-control-unstable-v1, version 2 has it).
extern const CWayland_protocol CWayland_wlr_data_control;

/// Events of a data device (the layout of both protocols' listeners).
typedef struct CWayland_device_listener {
    void (*data_offer)(void *data, struct wl_proxy *device, struct wl_proxy *offer);
    void (*selection)(void *data, struct wl_proxy *device, struct wl_proxy *offer);
    void (*finished)(void *data, struct wl_proxy *device);
    void (*primary_selection)(void *data, struct wl_proxy *device, struct wl_proxy *offer);
} CWayland_device_listener;

/// Events of a data source.
typedef struct CWayland_source_listener {
    void (*send)(void *data, struct wl_proxy *source, const char *mime_type, int32_t fd);
    void (*cancelled)(void *data, struct wl_proxy *source);
} CWayland_source_listener;

/// Events of a data offer.
typedef struct CWayland_offer_listener {
    void (*offer)(void *data, struct wl_proxy *offer, const char *mime_type);
} CWayland_offer_listener;

/// Events of the registry.
typedef struct CWayland_registry_listener {
    void (*global)(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version);
    void (*global_remove)(void *data, struct wl_proxy *registry, uint32_t name);
} CWayland_registry_listener;

/// The event of a wl_callback (a sync's answer).
typedef struct CWayland_callback_listener {
    void (*done)(void *data, struct wl_proxy *callback, uint32_t serial);
} CWayland_callback_listener;

/// Events of the seat.
typedef struct CWayland_seat_listener {
    void (*capabilities)(void *data, struct wl_proxy *seat, uint32_t capabilities);
    void (*name)(void *data, struct wl_proxy *seat, const char *name);
} CWayland_seat_listener;

/// Events of the seat's keyboard (only the keymap matters to a client without surfaces).
typedef struct CWayland_keyboard_listener {
    void (*keymap)(void *data, struct wl_proxy *keyboard, uint32_t format, int32_t fd, uint32_t size);
    void (*enter)(void *data, struct wl_proxy *keyboard, uint32_t serial, struct wl_proxy *surface,
                  struct wl_array *keys);
    void (*leave)(void *data, struct wl_proxy *keyboard, uint32_t serial, struct wl_proxy *surface);
    void (*key)(void *data, struct wl_proxy *keyboard, uint32_t serial, uint32_t time, uint32_t key,
                uint32_t state);
    void (*modifiers)(void *data, struct wl_proxy *keyboard, uint32_t serial, uint32_t depressed,
                      uint32_t latched, uint32_t locked, uint32_t group);
    void (*repeat_info)(void *data, struct wl_proxy *keyboard, int32_t rate, int32_t delay);
} CWayland_keyboard_listener;

/// The display's registry (wl_display.get_registry).
struct wl_proxy *CWayland_display_get_registry(struct wl_display *display);
/// A callback that is done once the compositor has handled every request before it.
struct wl_proxy *CWayland_display_sync(struct wl_display *display);
/// Binds the global `name` as `interface` at `version` (wl_registry.bind).
struct wl_proxy *CWayland_registry_bind(
    struct wl_proxy *registry, uint32_t name, const struct wl_interface *interface, uint32_t version);
/// wl_seat's interface, for binding the seat.
const struct wl_interface *CWayland_seat_interface(void);
/// wl_seat.release (version 5 and later), else only the proxy's destruction.
void CWayland_seat_release(struct wl_proxy *seat);
/// wl_seat.get_keyboard.
struct wl_proxy *CWayland_seat_get_keyboard(struct wl_proxy *seat);
/// wl_keyboard.release (version 3 and later), else only the proxy's destruction.
void CWayland_keyboard_release(struct wl_proxy *keyboard);
/// True when `capabilities` (of wl_seat.capabilities) has a keyboard.
int CWayland_seat_has_keyboard(uint32_t capabilities);
/// True when `format` (of wl_keyboard.keymap) is XKB's text format, version 1.
int CWayland_keymap_format_is_xkb_v1(uint32_t format);

int CWayland_registry_add_listener(struct wl_proxy *registry, const CWayland_registry_listener *listener, void *data);
int CWayland_callback_add_listener(struct wl_proxy *callback, const CWayland_callback_listener *listener, void *data);
int CWayland_device_add_listener(struct wl_proxy *device, const CWayland_device_listener *listener, void *data);
int CWayland_source_add_listener(struct wl_proxy *source, const CWayland_source_listener *listener, void *data);
int CWayland_offer_add_listener(struct wl_proxy *offer, const CWayland_offer_listener *listener, void *data);
int CWayland_seat_add_listener(struct wl_proxy *seat, const CWayland_seat_listener *listener, void *data);
int CWayland_keyboard_add_listener(struct wl_proxy *keyboard, const CWayland_keyboard_listener *listener, void *data);

/// manager.create_data_source.
struct wl_proxy *CWayland_manager_create_data_source(struct wl_proxy *manager, const CWayland_protocol *protocol);
/// manager.get_data_device(seat).
struct wl_proxy *CWayland_manager_get_data_device(
    struct wl_proxy *manager, const CWayland_protocol *protocol, struct wl_proxy *seat);
/// manager.destroy.
void CWayland_manager_destroy(struct wl_proxy *manager);
/// device.set_selection(source), or set_primary_selection when `primary`; source may be NULL.
void CWayland_device_set_selection(struct wl_proxy *device, struct wl_proxy *source, int primary);
/// device.destroy.
void CWayland_device_destroy(struct wl_proxy *device);
/// source.offer(mime_type).
void CWayland_source_offer(struct wl_proxy *source, const char *mime_type);
/// source.destroy.
void CWayland_source_destroy(struct wl_proxy *source);
/// offer.receive(mime_type, fd).
void CWayland_offer_receive(struct wl_proxy *offer, const char *mime_type, int32_t fd);
/// offer.destroy.
void CWayland_offer_destroy(struct wl_proxy *offer);

/// A pipe whose both ends are close-on-exec, the read end (`fds[0]`) alone non-blocking: the
/// write end is another program's; -1 and errno on failure.
int CWayland_pipe(int fds[2]);
/// Makes `fd` non-blocking; -1 and errno on failure.
int CWayland_set_nonblocking(int fd);
/// write(2) that never raises SIGPIPE in this process: a reader that closed its end gives
/// -1 with errno EPIPE instead.
ssize_t CWayland_write_nosignal(int fd, const void *bytes, size_t count);

/// A close-on-exec epoll descriptor; -1 and errno on failure.
int CWayland_epoll_create(void);
/// Watches `fd` for reading (`writable` 0) or writing (`writable` 1), or both (2), level
/// triggered; `modify` changes an existing watch. -1 and errno on failure.
int CWayland_epoll_watch(int epoll, int fd, int writable, int modify);
/// Stops watching `fd`.
int CWayland_epoll_unwatch(int epoll, int fd);
/// Fills `fds` with up to `capacity` ready descriptors, waiting at most `timeout` ms.
int CWayland_epoll_ready(int epoll, int *fds, int capacity, int timeout);

/// zwp_virtual_keyboard_manager_v1's interface, for binding the manager.
const struct wl_interface *CWayland_virtual_keyboard_manager_interface(void);
/// manager.create_virtual_keyboard(seat).
struct wl_proxy *CWayland_virtual_keyboard_create(struct wl_proxy *manager, struct wl_proxy *seat);
/// keyboard.keymap(xkb v1, fd, size).
void CWayland_virtual_keyboard_keymap(struct wl_proxy *keyboard, int32_t fd, uint32_t size);
/// keyboard.key(time, evdev key code, 1 pressed / 0 released).
void CWayland_virtual_keyboard_key(struct wl_proxy *keyboard, uint32_t time, uint32_t key, uint32_t pressed);
/// keyboard.modifiers(depressed, latched, locked, group).
void CWayland_virtual_keyboard_modifiers(
    struct wl_proxy *keyboard, uint32_t depressed, uint32_t latched, uint32_t locked, uint32_t group);
/// keyboard.destroy.
void CWayland_virtual_keyboard_destroy(struct wl_proxy *keyboard);

/// A keymap compiled by libxkbcommon, as a virtual keyboard uploads it.
typedef struct CWayland_keymap CWayland_keymap;
/// Compiles the keymap of rules/model/layout/variant/options (NULL or empty: libxkbcommon's
/// defaults, which follow $XKB_DEFAULT_*) and writes its text into a sealed memfd; NULL on
/// failure, with `*stage` naming the step that failed ("context", "compile", "text",
/// "memfd") and errno set for "memfd".
CWayland_keymap *CWayland_keymap_new(
    const char *rules, const char *model, const char *layout, const char *variant, const char *options,
    const char **stage);
/// Compiles the keymap the compositor sent in `fd` (`size` bytes with the NUL, at most
/// 4 MiB; wl_keyboard.keymap), into a keymap of its own memfd; NULL with errno and `*stage`
/// on failure. `fd` stays open.
CWayland_keymap *CWayland_keymap_new_from_fd(int32_t fd, uint32_t size, const char **stage);
/// Frees the keymap and closes its memfd.
void CWayland_keymap_free(CWayland_keymap *keymap);
/// The memfd holding the keymap text (with its NUL) and its size.
int32_t CWayland_keymap_fd(const CWayland_keymap *keymap);
uint32_t CWayland_keymap_size(const CWayland_keymap *keymap);
/// The number of keys (xkb keycodes with a keysym) and of layouts in the keymap.
uint32_t CWayland_keymap_key_count(const CWayland_keymap *keymap);
uint32_t CWayland_keymap_layout_count(const CWayland_keymap *keymap);
/// The evdev code (xkb keycode - 8) of the first key whose level 1 or 2 gives `keysym`, in
/// the first layout that has one (layout 1 first); `level` (0 or 1) and `layout` set to
/// where it was found; -1 when no key gives it.
int32_t CWayland_keymap_key_for(const CWayland_keymap *keymap, uint32_t keysym, int32_t *level, uint32_t *layout);
/// The mask of the modifier named `name` ("Control", "Shift", "Mod1", "Mod4"), 0 when the
/// keymap has none.
uint32_t CWayland_keymap_mod_mask(const CWayland_keymap *keymap, const char *name);

/// The windows a zwlr_foreign_toplevel_manager_v1 announces, and which is activated.
typedef struct CWayland_toplevels CWayland_toplevels;
/// zwlr_foreign_toplevel_manager_v1's interface name and the highest version cliptab speaks.
const char *CWayland_toplevels_interface_name(void);
uint32_t CWayland_toplevels_version(void);
/// Binds the manager (global `name` at `version`) and follows its windows; NULL when
/// libwayland made no proxy.
CWayland_toplevels *CWayland_toplevels_bind(struct wl_proxy *registry, uint32_t name, uint32_t version);
/// Stops following, destroys the handles and frees.
void CWayland_toplevels_free(CWayland_toplevels *toplevels);
/// The app id of the activated window (as of its last `done`), NULL when none is activated;
/// empty when it has none. Valid until the next dispatch.
const char *CWayland_toplevels_activated_app_id(const CWayland_toplevels *toplevels);
/// How many windows are known.
uint32_t CWayland_toplevels_count(const CWayland_toplevels *toplevels);

#endif
