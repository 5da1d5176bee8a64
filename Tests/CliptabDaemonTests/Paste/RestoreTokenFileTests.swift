// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import Glibc
import TestSupport
import Testing

/// The RemoteDesktop portal's restore token on disk: private to its user, replaced whole.
@Suite struct RestoreTokenFileTests {
    /// Written with mode 0600, read back without its newline; a new token
    /// replaces the old; none kept reads as nil.
    @Test func keptPrivately() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-token")
        let file = RestoreTokenFile(directory: directory.path)
        #expect(try file.read() == nil)
        try file.write("4f1c2d3e-token")
        var status = stat()
        #expect(stat(file.path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(try file.read() == "4f1c2d3e-token")
        try file.write("second")
        #expect(try file.read() == "second")
        file.remove()
        #expect(try file.read() == nil)
    }

    /// A token file anyone but its user may read or write is not used, and the error names
    /// the file and its mode: the group alone (0640, 0620), others alone (0604, 0602), both
    /// (0644), so that a check weakened to one of them fails here.
    @Test(arguments: [0o640, 0o620, 0o604, 0o602, 0o644, 0o660] as [mode_t])
    func othersMayReadIsRefused(mode: mode_t) throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-token")
        let file = RestoreTokenFile(directory: directory.path)
        try file.write("exposed")
        chmod(file.path, mode)
        #expect {
            try file.read()
        } throws: { error in
            let message = (error as? CliptabError)?.message ?? ""
            return message.contains(
                "\(file.path) has mode \(String(mode, radix: 8)), which lets others read or write it")
                && message.contains("it was not used")
        }
    }

    /// A token file of another user, mode 0600, is not used (the tests run as root, who
    /// could read it).
    @Test func anotherOwnerIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-token")
        let file = RestoreTokenFile(directory: directory.path)
        try file.write("planted")
        let other: uid_t = getuid() == 65534 ? 65533 : 65534
        #expect(chown(file.path, other, getgid()) == 0)
        #expect {
            try file.read()
        } throws: { error in
            (error as? CliptabError)?.message.contains(
                "\(file.path) belongs to uid \(other), not to this user") == true
        }
        // A new token replaces it, the user's own again.
        try file.write("mine")
        #expect(try file.read() == "mine")
    }

    /// A FIFO in the token's place is refused at once, without waiting for a writer (it
    /// would stall the daemon), and so are a directory and a symbolic link to a good token.
    @Test func notARegularFileIsRefusedAtOnce() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-token")
        let file = RestoreTokenFile(directory: directory.path)
        #expect(mkfifo(file.path, 0o600) == 0)
        // Were the open to wait for a writer, the guard would be that writer: the read ends.
        let path = file.path
        let hang = HangGuard(milliseconds: 20_000) {
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        #expect {
            try file.read()
        } throws: { error in
            (error as? CliptabError)?.message.contains("\(file.path) is a FIFO, not a regular file") == true
        }
        hang.disarm()
        #expect(!hang.fired, "reading the token waited for a writer of the FIFO")
        // The FIFO is replaced by a token written afterwards.
        try file.write("after-the-fifo")
        #expect(try file.read() == "after-the-fifo")

        unlink(file.path)
        #expect(mkdir(file.path, 0o700) == 0)
        #expect {
            try file.read()
        } throws: { error in
            (error as? CliptabError)?.message.contains("is a directory, not a regular file") == true
        }
        rmdir(file.path)

        let other = try TemporaryDirectory(prefix: "cliptab-token")
        let elsewhere = RestoreTokenFile(directory: other.path)
        try elsewhere.write("linked")
        #expect(symlink(elsewhere.path, file.path) == 0)
        #expect {
            try file.read()
        } throws: { error in
            (error as? CliptabError)?.message.contains("\(file.path) is a symbolic link") == true
        }
        // The directories live to the end (their deinit removes them).
        withExtendedLifetime((directory, other)) {}
    }
}
