// SPDX-License-Identifier: MIT
import Glibc

/// The running process's program, replaced by one installed beside it.
public enum ProgramImage {
    /// Replaces this process with `program`, found beside the running executable or else on
    /// `PATH`, given `arguments` (after its name); returns only when that fails, saying
    /// which program could not run and why.
    public static func replace(with program: String, arguments: [String]) -> String {
        let beside = directory().map { $0 + "/" + program }
        let path = beside.flatMap { access($0, X_OK) == 0 ? $0 : nil } ?? program
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        execvp(path, argv)
        let reason = String(cString: strerror(errno))
        for word in argv { free(word) }
        return "cannot run \(path): \(reason)"
    }

    /// The directory of the running executable (`/proc/self/exe`).
    private static func directory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
