// SPDX-License-Identifier: MIT
// GNU and Linux-only calls that the Glibc module does not export (it is built without
// _GNU_SOURCE), wrapped so that Swift can call them. Imported only by the Posix module.
#ifndef CPOSIX_H
#define CPOSIX_H

#include <signal.h>
#include <spawn.h>
#include <sys/types.h>

/// Creates a close-on-exec, non-blocking signalfd for `mask`; -1 and errno on failure.
int CPosix_signalfd(const sigset_t *mask);

/// Reads one pending signal from a signalfd; returns the signal number, 0 if none, -1 on error.
int CPosix_signalfd_read(int fd);

/// Adds a "close every fd from `low` up" action (posix_spawn_file_actions_addclosefrom_np).
int CPosix_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int low);

/// Creates a pipe whose both ends are close-on-exec; -1 and errno on failure.
int CPosix_pipe_cloexec(int fds[2]);

/// Gives the heap's free memory back to the system (malloc_trim); 1 when some was given back.
int CPosix_malloc_trim(void);

/// Opens a close-on-exec descriptor of process `pid` that turns readable when it ends
/// (pidfd_open, Linux 5.3); -1 and errno on failure.
int CPosix_pidfd_open(pid_t pid);

#endif
