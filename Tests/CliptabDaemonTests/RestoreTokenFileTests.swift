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

    /// A token file others may read is not used, and the error names it.
    @Test func othersMayReadIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-token")
        let file = RestoreTokenFile(directory: directory.path)
        try file.write("exposed")
        chmod(file.path, 0o644)
        #expect {
            try file.read()
        } throws: { error in
            (error as? CliptabError)?.message.contains("\(file.path) is not a private file of this user")
                == true
        }
    }
}
