// SPDX-License-Identifier: MIT
import Glibc

/// A temporary file that a person edits in their editor: made private (mode 0600), kept
/// when what it holds was not applied, removed after a success.
struct EditorSession {
    /// The file's path.
    let path: String

    /// Where the file goes: `$XDG_RUNTIME_DIR` (a private tmpfs), else `$TMPDIR` or `/tmp`;
    /// a secret table's texts go only into `$XDG_RUNTIME_DIR`, and without it the edit is
    /// refused, saying why.
    static func directory(secret: Bool) throws -> String {
        if let runtime = environment("XDG_RUNTIME_DIR") { return runtime }
        if secret {
            throw CLIFailure.local(
                "this table is secret, and its texts are written only to a private file in $XDG_RUNTIME_DIR, "
                    + "which is not set; nothing was written")
        }
        return environment("TMPDIR") ?? "/tmp"
    }

    /// A new file `PREFIX-XXXXXX.SUFFIX` (mode 0600) in `directory` holding `bytes`.
    static func make(in directory: String, prefix: String, suffix: String, bytes: [UInt8]) throws
        -> EditorSession
    {
        var template = Array("\(directory)/\(prefix)-XXXXXX\(suffix)".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer {
            mkstemps($0.baseAddress!, Int32(suffix.utf8.count))
        }
        guard descriptor >= 0 else {
            throw CLIFailure.local("cannot make a temporary file in \(directory): \(describe(errno: errno))")
        }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { close(descriptor) }
        do {
            try writeAll(bytes, to: descriptor)
        } catch {
            unlink(path)
            throw CLIFailure.local("cannot write \(path): \(describe(errno: errno))")
        }
        return EditorSession(path: path)
    }

    /// Replaces the file's content, private again: an editor that saved by renaming a new
    /// file over it left that file's mode.
    func write(_ bytes: [UInt8]) throws {
        guard chmod(path, 0o600) == 0 else {
            throw CLIFailure.local("cannot make \(path) private: \(describe(errno: errno))")
        }
        try InputReader.writeFile(path, bytes)
    }

    /// The file's content now.
    func read() throws -> [UInt8] { try InputReader.readAll(path) }

    /// Removes the file.
    func remove() { unlink(path) }

    /// Runs `$VISUAL`, else `$EDITOR`, else `vi`, on the file through `sh -c` (so that
    /// `EDITOR="code --wait"` works), in this terminal and process group; throws unless
    /// it exits 0.
    func runEditor() throws {
        let editor = Self.environment("VISUAL") ?? Self.environment("EDITOR") ?? "vi"
        let words: [String] = ["sh", "-c", editor + " \"$@\"", "sh", path]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, "sh", nil, nil, argv, environ)
        guard status == 0 else {
            throw CLIFailure.local("cannot run the editor (\(editor)): \(describe(errno: status))")
        }
        var result: Int32 = 0
        while waitpid(pid, &result, 0) < 0 {
            guard errno == EINTR else {
                throw CLIFailure.local("cannot wait for the editor: \(describe(errno: errno))")
            }
        }
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        let exited = result & 0x7F == 0
        guard exited && (result >> 8) & 0xFF == 0 else {
            throw CLIFailure.reported(
                "the editor (\(editor)) did not exit cleanly; nothing was applied, and the text is kept in \(path)"
            )
        }
    }

    /// The variable's value, nil when unset or empty.
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }
}
