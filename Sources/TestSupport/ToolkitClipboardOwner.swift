// SPDX-License-Identifier: MIT
import Foundation
import Posix

/// A Wayland program that owns the clipboard and serves it the way small toolkits do (GLFW
/// writes a selection with one `write` loop that gives up at the first error, `EAGAIN`
/// included), or never serves it at all: the other side of the Wayland reading tests.
///
/// A C program built with `cc` for each owner, against libwayland-client and the
/// data-control glue committed in `Sources/CWayland`; it takes the clipboard through
/// `zwlr_data_control_manager_v1`, so it needs no focus on a headless seat, and it runs in
/// the session as the session's user.
public final class ToolkitClipboardOwner {
    /// How the owner answers a `send`.
    public enum Serving: String, Sendable {
        /// Writes with one `write` loop into the descriptor as it comes, stops at the first
        /// error (`EAGAIN` of a non-blocking pipe included), then closes it: as GLFW does.
        case writeOnce = "write-once"
        /// Keeps the descriptor open and never writes: an owner that hangs.
        case silent
    }

    /// The owner's process (it ends when another program takes the clipboard).
    public let process: ChildProcess
    private let directory: TemporaryDirectory

    /// Starts an owner of the clipboard in `sway`'s session offering `text` as
    /// `text/plain;charset=utf-8` and `text/plain`, then `extraTypes` more types
    /// (`application/x-cliptab-test-N-xxx…`, 160 bytes each, the same content), then the
    /// password hint with the content `hint` when given.
    ///
    /// The compositor writes a selection's offer to every clipboard manager at once, and a
    /// client that does not read it meanwhile is dropped once its socket is full: 5,000 such
    /// types are some 850 KB of offer.
    ///
    /// With `waitUntilOwning`, returns once the compositor has taken the selection (at most
    /// `timeoutMilliseconds`); else at once.
    public init(
        in sway: HeadlessCompositor, text: [UInt8], serving: Serving = .writeOnce, extraTypes: Int = 0,
        hint: String? = nil, waitUntilOwning: Bool = true, timeoutMilliseconds: Int = 10_000
    ) throws {
        directory = try TemporaryDirectory(prefix: "cliptab-owner")
        chmod(directory.path, 0o755)
        let program = try Self.build(in: directory)
        var arguments = ["--serving", serving.rawValue, "--types", "\(extraTypes)"]
        if let hint { arguments += ["--hint", hint] }
        process = try sway.spawn(program, arguments, stdin: .pipe, stdout: .pipe, stderr: .pipe)
        try process.write(text)
        process.closeStandardInput()
        guard waitUntilOwning else { return }
        guard process.readLine(timeoutMilliseconds: timeoutMilliseconds) == "ready" else {
            process.terminate(graceMilliseconds: 1000)
            throw FixtureError("the toolkit-like owner did not take the clipboard")
        }
    }

    deinit { process.terminate(graceMilliseconds: 1000) }

    /// The next line the owner printed within `timeoutMilliseconds` (for each `send`:
    /// `sent TYPE BYTES ERRNO`, or `silent TYPE`), or nil.
    public func report(timeoutMilliseconds: Int = 10_000) -> String? {
        process.readLine(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Builds the owner program into `directory`; returns its path.
    private static func build(in directory: TemporaryDirectory) throws -> String {
        let glue = Repository.path("Sources/CWayland")
        let sourcePath = HelperPrograms.path("toolkit_clipboard_owner.c")
        let program = directory.appending("owner")
        var problems: [String] = []
        for compiler in ["cc", "clang"] {
            let result = try? ChildProcess.run(
                compiler,
                [
                    "-O1", "-o", program, "-I", glue, sourcePath,
                    "\(glue)/wlr-data-control-unstable-v1-protocol.c",
                    "-lwayland-client",
                ], timeoutMilliseconds: 60_000)
            if result?.termination == .exited(0) {
                chmod(program, 0o755)
                return program
            }
            problems.append("\(compiler): \(result?.errorText ?? "not found")")
        }
        throw FixtureError("cannot build the toolkit-like clipboard owner: \(problems)")
    }
}
