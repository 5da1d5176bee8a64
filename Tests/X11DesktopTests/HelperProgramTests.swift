// SPDX-License-Identifier: MIT
import Posix
import TestSupport
import Testing

/// The helper programs of `TestSupport/Programs` are well-formed, so that a typo in one fails
/// here, by name, rather than as a fixture that never says `ready`.
struct HelperProgramTests {
    /// Every Python program compiles (`python3 -m py_compile`), its cache kept out of the
    /// checkout.
    @Test func everyPythonProgramCompiles() throws {
        let names = try HelperPrograms.pythonNames()
        #expect(names.count >= 7, "\(names)")
        let cache = try TemporaryDirectory(prefix: "cliptab-pycache")
        for name in names {
            let result = try ChildProcess.run(
                "python3", ["-m", "py_compile", HelperPrograms.path(name)],
                environment: ["PATH": "/usr/local/bin:/usr/bin:/bin", "PYTHONPYCACHEPREFIX": cache.path],
                timeoutMilliseconds: 60_000)
            #expect(result.termination == .exited(0), "\(name): \(result.errorText)")
        }
    }
}
