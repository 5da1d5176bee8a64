// SPDX-License-Identifier: MIT
import CliptabCore
import Glibc

/// The exclusive lock of a data directory, so that two daemons (on two buses, say) never write one store at
/// once.
///
/// The kernel drops it when the process ends, even by kill -9.
public final class StoreLock {
    private let fileDescriptor: Int32

    private init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    deinit { close(fileDescriptor) }

    /// Takes `directory/cliptab.lock` (making the directory if needed), or throws
    /// `StorageFailure` saying that another cliptabd holds it.
    public static func take(directory: String) throws -> StoreLock {
        try makeDirectory(directory)
        let lockPath = directory + "/cliptab.lock"
        let fd = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 { throw storageError("cannot open the lock file \(lockPath)", errno) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK {
                throw CliptabError(
                    .storageFailure,
                    "the store in \(directory) is in use by another cliptabd (\(lockPath) is locked); stop that one first"
                )
            }
            throw storageError("cannot lock \(lockPath)", code)
        }
        return StoreLock(fileDescriptor: fd)
    }
}
