// SPDX-License-Identifier: MIT
import Glibc
import Posix

/// `--launcher auto`: the first installed launcher that suits the session.
///
/// Wayland (`WAYLAND_DISPLAY` set): fuzzel, wofi, then rofi 2 or later (rofi 1.x draws on
/// X11 only, where a Wayland compositor may give it no keyboard). X11 (`DISPLAY` set): rofi,
/// then dmenu. Neither: fzf, in the terminal.
enum LauncherChoice {
    /// The launchers tried, in order, for a session with `environment`.
    static func candidates(_ environment: (String) -> String?) -> (session: String, names: [String]) {
        func set(_ name: String) -> Bool { environment(name).map { !$0.isEmpty } ?? false }
        if set("WAYLAND_DISPLAY") { return ("Wayland", ["fuzzel", "wofi", "rofi"]) }
        if set("DISPLAY") { return ("X11", ["rofi", "dmenu"]) }
        return ("terminal", ["fzf"])
    }

    /// The launcher for this session: the first of `candidates` found on `PATH` (rofi on
    /// Wayland only from version 2); a `CLIFailure` naming them when none is installed.
    static func choose(_ environment: (String) -> String? = Self.variable) throws -> Launcher {
        let (session, names) = candidates(environment)
        let path = environment("PATH") ?? "/usr/bin:/bin"
        for name in names {
            guard let program = find(name, in: path) else { continue }
            if session == "Wayland" && name == "rofi" && (majorVersion(ofRofi: program) ?? 0) < 2 { continue }
            return try Launcher(program)
        }
        throw CLIFailure.local(
            "no launcher for this \(session) session: install \(names.joined(separator: " or ")), or name one with --launcher"
        )
    }

    /// The path of the executable `name` in the directories of `path`, if there is one.
    static func find(_ name: String, in path: String) -> String? {
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The major version `rofi -version` names ("Version: 1.7.3"), if it says one.
    static func majorVersion(ofRofi program: String) -> Int? {
        guard let result = try? ChildProcess.run(program, ["-version"], timeoutMilliseconds: 5_000),
            result.termination == .exited(0)
        else { return nil }
        for line in result.outputText.split(separator: "\n") where line.hasPrefix("Version: ") {
            return Int(line.dropFirst("Version: ".count).prefix(while: \.isNumber))
        }
        return nil
    }

    /// The environment variable `name`, if set.
    static func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
