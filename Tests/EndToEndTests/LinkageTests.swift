// SPDX-License-Identifier: MIT
import Posix
import Testing

/// What the built client loads: libdbus and the C and Swift runtimes, nothing of the daemon.
@Suite struct LinkageTests {
    @Test func linksNeitherX11NorSQLiteNorFoundation() throws {
        let result = try ChildProcess.run("ldd", [cliptabPath])
        #expect(result.termination == .exited(0))
        let libraries = result.outputText
        #expect(libraries.contains("libdbus-1.so"))
        for unwanted in ["libX11", "libxcb", "libsqlite3", "libFoundation", "libicu"] {
            #expect(!libraries.contains(unwanted), "cliptab loads \(unwanted)")
        }
    }
}
