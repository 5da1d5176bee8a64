// SPDX-License-Identifier: MIT
import Glibc
import TestSupport

/// A small program that edits a file as a person would, run as `$EDITOR` by `cliptab edit`:
/// each time it is opened it does the next round of actions (move a line, change a word,
/// delete or add a line, break the YAML, empty the file, run a command meanwhile, or
/// nothing), saving by writing another file and renaming it over, as vim does; it logs
/// what it found (path, mode, text) for the test to read.
struct ScriptedEditor {
    /// The directory of the script, its round counter and its log.
    let directory: String

    private static let script = HelperPrograms.source("scripted_editor.py")

    /// Writes the script into `directory`.
    init(directory: String) throws {
        self.directory = directory
        let file = fopen(directory + "/editor.py", "w")
        guard let file else { throw EditorScriptError(message: "cannot write the editor script") }
        fputs(Self.script, file)
        fclose(file)
    }

    /// The environment that makes `cliptab edit` run the script with `rounds` (each a list
    /// of actions, each a list of words).
    func environment(_ base: [String: String], rounds: [[[String]]]) -> [String: String] {
        unlink(directory + "/count")
        unlink(directory + "/log")
        var environment = base
        environment["EDITOR"] = "python3 '\(directory)/editor.py'"
        environment["EDIT_STATE"] = directory
        let json = rounds.map { round in
            "["
                + round.map { "[" + $0.map(Self.jsonString).joined(separator: ",") + "]" }.joined(
                    separator: ",") + "]"
        }
        environment["EDIT_ROUNDS"] = "[" + json.joined(separator: ",") + "]"
        return environment
    }

    /// The lines of the log: one per opening, as JSON.
    func log() -> [String] {
        guard let file = fopen(directory + "/log", "r") else { return [] }
        defer { fclose(file) }
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 1 << 16)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            lines.append(String(cString: buffer))
        }
        return lines
    }

    private static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// The editor script could not be written.
struct EditorScriptError: Error {
    /// Why.
    let message: String
}
