// SPDX-License-Identifier: MIT
// libdbus is linked from its static archive (see Package.swift: the shared library pulls in
// libsystemd and six more libraries, a millisecond of every `cliptab` call). The archive's
// server side asks libsystemd for sockets passed by socket activation, for "systemd:" listen
// addresses, which only a bus daemon uses. cliptab's programs are clients: systemd passes
// them no sockets, which is what these answer, without linking libsystemd.
#include "CDBusStatic.h"

#include <errno.h>

int sd_listen_fds(int unset_environment) {
    (void)unset_environment;
    return 0;  // no sockets passed
}

int sd_is_socket(int fd, int family, int type, int listening) {
    (void)fd;
    (void)family;
    (void)type;
    (void)listening;
    return -ENOTSOCK;  // never reached: there are no passed sockets to check
}
