// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "CPosix.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>

int CPosix_signalfd(const sigset_t *mask) {
    return signalfd(-1, mask, SFD_CLOEXEC | SFD_NONBLOCK);
}

int CPosix_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    if (n == (ssize_t)sizeof info) {
        return (int)info.ssi_signo;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return 0;
    }
    return -1;
}

int CPosix_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int low) {
    return posix_spawn_file_actions_addclosefrom_np(actions, low);
}

int CPosix_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int CPosix_malloc_trim(void) {
    return malloc_trim(0);
}

int CPosix_pidfd_open(pid_t pid) {
    // glibc 2.36 declares no wrapper; the descriptor is close-on-exec by the kernel's rule.
    return (int)syscall(SYS_pidfd_open, pid, 0);
}
