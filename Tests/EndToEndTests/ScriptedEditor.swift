// SPDX-License-Identifier: MIT
import Glibc

/// A small program that edits a file as a person would, run as `$EDITOR` by `cliptab edit`:
/// each time it is opened it does the next round of actions (move a line, change a word,
/// delete or add a line, break the YAML, empty the file, run a command meanwhile, or
/// nothing), saving by writing another file and renaming it over, as vim does; it logs
/// what it found (path, mode, text) for the test to read.
struct ScriptedEditor {
    /// The directory of the script, its round counter and its log.
    let directory: String

    private static let script = #"""
        import json, os, subprocess, sys
        path = sys.argv[-1]
        state = os.environ["EDIT_STATE"]
        rounds = json.loads(os.environ["EDIT_ROUNDS"])
        counter = os.path.join(state, "count")
        n = int(open(counter).read()) if os.path.exists(counter) else 0
        open(counter, "w").write(str(n + 1))
        text = open(path, encoding="utf-8", newline="").read()
        with open(os.path.join(state, "log"), "a") as log:
            log.write(json.dumps({"path": path, "mode": os.stat(path).st_mode & 0o777, "text": text}) + "\n")
        lines = text.split("\n")
        def find(part):
            return next(i for i, line in enumerate(lines) if part in line)
        for action in (rounds[n] if n < len(rounds) else []):
            kind = action[0]
            if kind == "move":
                line = lines.pop(find(action[1]))
                lines.insert(find(action[2]), line)
            elif kind == "replace":
                i = find(action[1])
                lines[i] = lines[i].replace(action[1], action[2], 1)
            elif kind == "delete":
                lines.pop(find(action[1]))
            elif kind == "add-after":
                lines.insert(find(action[1]) + 1, action[2])
            elif kind == "write":
                lines = action[1].split("\n")
            elif kind == "run":
                subprocess.run(action[1], shell=True, check=True)
            elif kind == "fail":
                sys.exit(3)
        out = "\n".join(lines)
        if out != text or n % 2 == 0:
            temporary = path + ".swp"
            open(temporary, "w", encoding="utf-8", newline="").write(out)
            os.rename(temporary, path)
        """#

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
