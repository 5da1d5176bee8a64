// SPDX-License-Identifier: MIT
// libwayland-client and the data-control protocols for the WaylandSelection module, which
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

int CWayland_registry_add_listener(struct wl_proxy *registry, const CWayland_registry_listener *listener, void *data);
int CWayland_callback_add_listener(struct wl_proxy *callback, const CWayland_callback_listener *listener, void *data);
int CWayland_device_add_listener(struct wl_proxy *device, const CWayland_device_listener *listener, void *data);
int CWayland_source_add_listener(struct wl_proxy *source, const CWayland_source_listener *listener, void *data);
int CWayland_offer_add_listener(struct wl_proxy *offer, const CWayland_offer_listener *listener, void *data);

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

/// A pipe whose both ends are close-on-exec and non-blocking; -1 and errno on failure.
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

#endif
