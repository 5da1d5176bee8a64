// SPDX-License-Identifier: MIT
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>
#include "wlr-data-control-unstable-v1-client-protocol.h"

static struct wl_seat *seat;
static struct zwlr_data_control_manager_v1 *manager;
static char *text, *hint;
static size_t text_size;
static int silent;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                   uint32_t version) {
    if (strcmp(interface, wl_seat_interface.name) == 0 && !seat) {
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    } else if (strcmp(interface, zwlr_data_control_manager_v1_interface.name) == 0) {
        manager = wl_registry_bind(registry, name, &zwlr_data_control_manager_v1_interface, 1);
    }
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {}
static const struct wl_registry_listener registry_listener = {global, global_remove};

static void send(void *data, struct zwlr_data_control_source_v1 *source, const char *mime, int32_t fd) {
    if (silent) {
        printf("silent %s\n", mime);
        fflush(stdout);
        return;
    }
    const char *bytes = text;
    size_t size = text_size, done = 0;
    if (hint && strcmp(mime, "x-kde-passwordManagerHint") == 0) {
        bytes = hint;
        size = strlen(hint);
    }
    int error = 0;
    while (done < size) {
        ssize_t n = write(fd, bytes + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            error = errno;
            break;
        }
        done += (size_t)n;
    }
    close(fd);
    printf("sent %s %zu %d\n", mime, done, error);
    fflush(stdout);
}
static void flush(struct wl_display *display) {
    struct pollfd entry = {wl_display_get_fd(display), POLLOUT, 0};
    while (wl_display_flush(display) < 0 && errno == EAGAIN) poll(&entry, 1, -1);
}

static void cancelled(void *data, struct zwlr_data_control_source_v1 *source) { exit(0); }
static const struct zwlr_data_control_source_v1_listener source_listener = {send, cancelled};

int main(int argc, char **argv) {
    int extra = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--serving") == 0) silent = strcmp(argv[i + 1], "silent") == 0;
        else if (strcmp(argv[i], "--types") == 0) extra = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--hint") == 0) hint = argv[i + 1];
    }
    size_t capacity = 1 << 16;
    text = malloc(capacity);
    ssize_t n;
    while ((n = read(0, text + text_size, capacity - text_size)) > 0) {
        text_size += (size_t)n;
        if (text_size == capacity) text = realloc(text, capacity *= 2);
    }
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "cannot connect to the compositor\n");
        return 2;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!seat || !manager) {
        fprintf(stderr, "the compositor offers no zwlr_data_control_manager_v1\n");
        return 2;
    }
    struct zwlr_data_control_device_v1 *device = zwlr_data_control_manager_v1_get_data_device(manager, seat);
    struct zwlr_data_control_source_v1 *source = zwlr_data_control_manager_v1_create_data_source(manager);
    zwlr_data_control_source_v1_add_listener(source, &source_listener, NULL);
    zwlr_data_control_source_v1_offer(source, "text/plain;charset=utf-8");
    zwlr_data_control_source_v1_offer(source, "text/plain");
    for (int i = 0; i < extra; i++) {
        char type[161];
        int length = snprintf(type, sizeof type, "application/x-cliptab-test-%d-", i);
        memset(type + length, 'x', sizeof type - 1 - length);
        type[sizeof type - 1] = 0;
        zwlr_data_control_source_v1_offer(source, type);
        // libwayland's buffer (4 KiB) holds about 20 such requests: send them as they come.
        if (i % 16 == 0) flush(display);
    }
    if (hint) zwlr_data_control_source_v1_offer(source, "x-kde-passwordManagerHint");
    zwlr_data_control_device_v1_set_selection(device, source);
    if (wl_display_roundtrip(display) < 0) {
        fprintf(stderr, "the compositor dropped the owner\n");
        return 3;
    }
    printf("ready\n");
    fflush(stdout);
    while (wl_display_dispatch(display) >= 0) {
    }
    fprintf(stderr, "the compositor dropped the owner\n");
    return 3;
}
