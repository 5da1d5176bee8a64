// SPDX-License-Identifier: MIT
import Foundation
import Posix
import TestSupport

/// A filesystem mounted by the test (root only): a size-limited tmpfs, or a read-only bind
/// mount; unmounted with `unmount()`.
final class Mount {
    /// The mount point.
    let path: String
    private var mounted = true

    private init(path: String) { self.path = path }

    /// Mounts a tmpfs of `kibibytes` at `path`, or returns nil when mounting is not permitted.
    static func tmpfs(at path: String, kibibytes: Int) -> Mount? {
        let result = try? ChildProcess.run(
            "mount", ["-t", "tmpfs", "-o", "size=\(kibibytes)k,mode=0700", "tmpfs", path],
            timeoutMilliseconds: 10_000)
        return result?.termination == .exited(0) ? Mount(path: path) : nil
    }

    /// Makes `path` read-only by bind-mounting it onto itself read-only, or returns nil when
    /// mounting is not permitted.
    static func readOnly(_ path: String) -> Mount? {
        guard (try? ChildProcess.run("mount", ["--bind", path, path]))?.termination == .exited(0) else {
            return nil
        }
        let mount = Mount(path: path)
        let remount = try? ChildProcess.run("mount", ["-o", "remount,ro,bind", path])
        guard remount?.termination == .exited(0) else {
            mount.unmount()
            return nil
        }
        return mount
    }

    /// Unmounts (lazily, so that a process still holding a file cannot keep it).
    func unmount() {
        guard mounted else { return }
        mounted = false
        _ = try? ChildProcess.run("umount", ["-l", path])
    }

    deinit { unmount() }
}

/// A preloaded library that makes the daemon's writes to regular files fail on command:
/// while the file `enospc` exists in the control directory, `write` and `pwrite` fail
/// with ENOSPC; when `eio-sync` exists, the next `fsync` or `fdatasync` fails with EIO
/// and removes it.
///
/// Built by the test from C source with the system's C compiler (or the toolchain's clang).
enum FaultInjection {
    /// The C source of the library.
    static let source = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <sys/stat.h>
        #include <sys/types.h>
        #include <unistd.h>

        static int regular(int fd) {
            struct stat info;
            return fd > 2 && fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
        }

        static int flagged(const char *name, int consume) {
            const char *dir = getenv("CLIPTAB_FAULT_DIR");
            char path[4096];
            if (!dir) return 0;
            snprintf(path, sizeof path, "%s/%s", dir, name);
            if (access(path, F_OK) != 0) return 0;
            if (consume) unlink(path);
            return 1;
        }

        #define REAL(name) \
            static __typeof__(name) *real; \
            if (!real) real = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

        ssize_t write(int fd, const void *buffer, size_t count) {
            REAL(write);
            if (regular(fd) && flagged("enospc", 0)) { errno = ENOSPC; return -1; }
            return real(fd, buffer, count);
        }

        ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
            REAL(pwrite);
            if (regular(fd) && flagged("enospc", 0)) { errno = ENOSPC; return -1; }
            return real(fd, buffer, count, offset);
        }

        ssize_t pwrite64(int fd, const void *buffer, size_t count, off_t offset) {
            REAL(pwrite64);
            if (regular(fd) && flagged("enospc", 0)) { errno = ENOSPC; return -1; }
            return real(fd, buffer, count, offset);
        }

        int fsync(int fd) {
            REAL(fsync);
            if (regular(fd) && flagged("eio-sync", 1)) { errno = EIO; return -1; }
            return real(fd);
        }

        int fdatasync(int fd) {
            REAL(fdatasync);
            if (regular(fd) && flagged("eio-sync", 1)) { errno = EIO; return -1; }
            return real(fd);
        }
        """#

    /// Builds the library into `directory` and returns its path.
    static func build(in directory: TemporaryDirectory) throws -> String {
        let sourcePath = directory.appending("fault.c")
        let library = directory.appending("fault.so")
        try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        var problems: [String] = []
        for compiler in ["cc", "clang"] {
            let result = try? ChildProcess.run(
                compiler, ["-shared", "-fPIC", "-O2", "-o", library, sourcePath, "-ldl"],
                timeoutMilliseconds: 60_000)
            if result?.termination == .exited(0) { return library }
            problems.append("\(compiler): \(result?.errorText ?? "not found")")
        }
        throw FixtureError("cannot build the fault injection library: \(problems)")
    }
}

/// A control directory for `FaultInjection`.
final class FaultSwitch {
    /// The directory named by `CLIPTAB_FAULT_DIR`.
    let directory: String

    /// Uses `directory` (which must exist).
    init(directory: String) { self.directory = directory }

    /// Turns a fault on (`enospc` stays until `off`; `eio-sync` fires once).
    func on(_ name: String) {
        _ = FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: nil)
    }

    /// Turns a fault off.
    func off(_ name: String) {
        unlink("\(directory)/\(name)")
    }

    /// True while the fault is armed.
    func isOn(_ name: String) -> Bool { FileManager.default.fileExists(atPath: "\(directory)/\(name)") }
}

/// Reads a whole file, or nil when it does not exist.
func fileBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}

/// Fills the filesystem holding `directory` with a file named `name`, until it is full;
/// returns the file's path.
func fillFilesystem(_ directory: String, name: String = "filler") -> String {
    let path = "\(directory)/\(name)"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return path }
    defer { close(fd) }
    let chunk = [UInt8](repeating: 0x55, count: 4096)
    while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
    return path
}
