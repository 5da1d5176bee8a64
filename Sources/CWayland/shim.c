// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "CWayland.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "ext-data-control-v1-client-protocol.h"
#include "wlr-data-control-unstable-v1-client-protocol.h"

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

#define ADD_LISTENER(kind, type)                                                              \
    int CWayland_##kind##_add_listener(struct wl_proxy *proxy, const type *listener, void *data) { \
        return wl_proxy_add_listener(proxy, (void (**)(void))listener, data);                 \
    }
ADD_LISTENER(registry, CWayland_registry_listener)
ADD_LISTENER(callback, CWayland_callback_listener)
ADD_LISTENER(device, CWayland_device_listener)
ADD_LISTENER(source, CWayland_source_listener)
ADD_LISTENER(offer, CWayland_offer_listener)

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

int CWayland_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC | O_NONBLOCK); }

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
