// SPDX-License-Identifier: MIT
import Glibc
import MenuModel

/// Where the menu's settings are read from: the daemon's `cliptab.conf`.
enum SettingsFile {
    /// The file `--config` names, else `$XDG_CONFIG_HOME/cliptab/cliptab.conf`, else
    /// `~/.config/cliptab/cliptab.conf`.
    static func path(given: String?) -> String? {
        if let given { return given }
        if let config = getenv("XDG_CONFIG_HOME").map({ String(cString: $0) }), config.hasPrefix("/") {
            return config + "/cliptab/cliptab.conf"
        }
        if let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") {
            return home + "/.config/cliptab/cliptab.conf"
        }
        return nil
    }

    /// The whole text of `path`, or nil when it cannot be read or is not a regular file.
    static func read(_ path: String) -> String? {
        // Without blocking: a FIFO at the path would hold the menu until some program wrote
        // to it.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            let file = fdopen(descriptor, "r")
        else {
            close(descriptor)
            return nil
        }
        defer { fclose(file) }
        var text = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            text += buffer[..<count]
        }
        return String(decoding: text, as: UTF8.self)
    }
}
