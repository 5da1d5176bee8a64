// SPDX-License-Identifier: MIT
import Foundation
import Posix

/// The helper programs the tests run (Python with Tk, GTK, GObject or libX11 through ctypes),
/// kept as files in `Programs` beside this one, so that they read, lint and compile as what
/// they are.
///
/// They are found from this file's path: the tests run from a checkout, and a path needs no
/// resource bundle (whose lookup differs between the test bundle and the benchmark).
public enum HelperPrograms {
    /// The directory of the programs.
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Programs").path

    /// The path of the program `name` (`marked_clipboard_owner.py`).
    public static func path(_ name: String) -> String { "\(directory)/\(name)" }

    /// The text of the program `name`, for `python3 -c`; stops the test run when it is
    /// missing, as a broken checkout.
    ///
    /// Programs run by their text rather than their path: a sway session's programs run as
    /// `nobody`, who may not read the checkout.
    public static func source(_ name: String) -> String {
        guard let text = try? String(contentsOfFile: path(name), encoding: .utf8) else {
            fatalError("the helper program \(path(name)) is missing")
        }
        return text
    }

    /// The names of every Python program in the directory.
    public static func pythonNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".py") }.sorted()
    }
}

/// Finds a `python3` in `path` (the test's own `PATH` unless given) that can run `check`.
///
/// Nil when none can. The first `python3` found may be a separate installation without the
/// distribution's Tk, GTK or GLib bindings, so each is asked in turn.
public func python(
    running check: String, path: String = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
) -> String? {
    var seen = Set<String>()
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/python3"
        guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
        let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: candidate)) ?? candidate
        guard seen.insert(resolved).inserted else { continue }
        let probe = try? ChildProcess.run(candidate, ["-c", check], timeoutMilliseconds: 20_000)
        if probe?.termination == .exited(0) { return candidate }
    }
    return nil
}

/// The opening of every Python script that speaks to the X server through libX11 (ctypes)
/// to send what no common client sends: the modules, `x` (the library), the `P`, `L`, `I`
/// type shorthands and the prototypes of the Xlib calls those scripts make.
///
/// A script is `xlibPythonPrelude + body`, run as `python3 -c SCRIPT ARGS…`.
public var xlibPythonPrelude: String { HelperPrograms.source("xlib_prelude.py") }

/// A Python X client (libX11 through ctypes) that nests windows and takes the input focus,
/// as a hostile client may: `python3 -c windowNestScript DEPTH SHAPE CLASS ACTIVE [FOCUS]`.
///
/// It makes a top-level window and DEPTH more: with SHAPE `chain` each inside the one
/// before (the focus goes to the deepest), with `wide` all inside the top-level window (the
/// focus goes to it). CLASS `top` gives the top-level window `WM_CLASS` "nested", "Nested"
/// (`none`: no window has one); ACTIVE `top` names it in the root's `_NET_ACTIVE_WINDOW`,
/// as a window manager would. An optional FOCUS `pointerroot` sets the input focus to
/// PointerRoot instead of a window of its own. It prints `ready TOP FOCUS` (window ids) once
/// the focus is set, and exits when its standard input ends.
public var windowNestScript: String { xlibPythonPrelude + HelperPrograms.source("window_nest.py") }
