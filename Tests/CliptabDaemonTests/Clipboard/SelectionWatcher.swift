// SPDX-License-Identifier: MIT
import Foundation
import Posix
import TestSupport

/// A clipboard manager that saves every new owner of CLIPBOARD at once.
///
/// As CopyQ, GPaste, Klipper and clipit do: XFixes tells it of each new owner and it reads
/// the text then. `manager` also owns `CLIPBOARD_MANAGER` and reads the text itself; `xclip`
/// owns nothing and runs `xclip -o` for each new owner (a watch loop in a shell script).
///
/// It prints `ready`, then `saved JSON` for each owner (the text, or null when there was
/// none in UTF-8). `delay` milliseconds pass before each read: a manager slower than the
/// 100 ms in which reads never count (a loaded machine), told apart by CLIPBOARD_MANAGER.
final class SelectionWatcher {
    /// How it reads.
    enum Mode: String {
        case manager
        case xclip
    }

    let process: ChildProcess

    /// Starts one on `desk`'s display and waits until it listens.
    init(_ mode: Mode, on desk: PasteDesk, delay: Int = 0) throws {
        process = try desk.start("python3", ["-c", Self.script, mode.rawValue, "\(delay)"])
        guard process.readLine(timeoutMilliseconds: 20_000) == "ready" else {
            throw FixtureError("the \(mode) clipboard watcher did not start")
        }
    }

    /// The next text saved (nil for an owner without text); throws when none comes in time.
    func nextSaved() throws -> String? {
        guard let line = process.readLine(timeoutMilliseconds: 20_000), line.hasPrefix("saved ") else {
            throw FixtureError("the clipboard watcher saved nothing")
        }
        let json = Data(line.dropFirst(6).utf8)
        return try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]) as? String
    }

    /// Reads saved texts until `text` comes; throws when it does not in time.
    func waitForSaved(_ text: String) throws {
        while try nextSaved() != text {}
    }

    static let script =
        xlibPythonPrelude + HelperPrograms.source("selection_watcher.py")
}
