// SPDX-License-Identifier: MIT
import Posix
import Testing

/// What the built client loads: the C and Swift runtimes, nothing of the daemon, and not
/// even libdbus's shared library (its archive is linked in, so that libsystemd and the six
/// libraries behind it stay out of every call's start).
@Suite struct LinkageTests {
    @Test func linksNeitherX11NorSQLiteNorFoundation() throws {
        let result = try ChildProcess.run("ldd", [cliptabPath])
        #expect(result.termination == .exited(0))
        let libraries = result.outputText
        #expect(libraries.contains("libc.so"))
        for unwanted in [
            "libX11", "libxcb", "libsqlite3", "libFoundation", "libicu", "libdbus", "libsystemd",
        ] {
            #expect(!libraries.contains(unwanted), "cliptab loads \(unwanted)")
        }
    }
}
