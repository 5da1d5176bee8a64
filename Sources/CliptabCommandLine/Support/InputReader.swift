// SPDX-License-Identifier: MIT
import Glibc

/// Reading standard input and files, and checking that what was read can be cell text.
enum InputReader {
    /// Every byte of the file at `path`, or of standard input when `path` is nil or `-`.
    static func readAll(_ path: String?) throws -> [UInt8] {
        let fromStandardInput = path == nil || path == "-"
        let descriptor: Int32 = fromStandardInput ? 0 : open(path!, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CLIFailure.local("cannot open \(path!): \(describe(errno: errno))")
        }
        defer { if !fromStandardInput { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                let source = fromStandardInput ? "standard input" : path!
                throw CLIFailure.local("cannot read \(source): \(describe(errno: errno))")
            }
        }
    }

    /// `bytes` as text, refused when it is not UTF-8 or holds a NUL byte (D-Bus strings can
    /// carry neither); `source` names where it came from.
    static func text(_ bytes: some Collection<UInt8>, source: String) throws -> String {
        if bytes.contains(0) {
            throw CLIFailure.local("\(source) contains a NUL byte, which cell text cannot hold")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIFailure.local("\(source) is not valid UTF-8 text")
        }
        return text
    }

    /// The lines of `bytes`, one row each, split at `\n` and otherwise unchanged.
    ///
    /// A last line without `\n` counts, and a final `\n` does not start another (empty) row.
    static func lines(_ bytes: [UInt8], source: String) throws -> [String] {
        var lines: [String] = []
        var start = 0
        var number = 1
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            lines.append(try text(bytes[start..<end], source: "\(source), line \(number),"))
            start = end + 1
            number += 1
        }
        return lines
    }

    /// Writes `bytes` to the file at `path`, replacing it.
    static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw CLIFailure.local("cannot write \(path): \(describe(errno: errno))")
        }
        defer { close(descriptor) }
        do {
            try writeAll(bytes, to: descriptor)
        } catch {
            throw CLIFailure.local("cannot write \(path): \(describe(errno: errno))")
        }
    }
}
