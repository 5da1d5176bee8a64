// SPDX-License-Identifier: MIT
// What libdbus's static archive needs from libsystemd, for programs that systemd never
// hands sockets to. See stubs.c.
#pragma once

int sd_listen_fds(int unset_environment);
int sd_is_socket(int fd, int family, int type, int listening);
