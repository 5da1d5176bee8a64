// SPDX-License-Identifier: MIT
import Glibc

/// Where the configuration file is looked for.
public enum ConfigLocation {
    /// `$XDG_CONFIG_HOME/cliptab/cliptab.conf`, or `~/.config/cliptab/cliptab.conf` when
    /// `XDG_CONFIG_HOME` is unset or not absolute; nil when neither it nor `HOME` is usable.
    public static func defaultPath(environment: (String) -> String? = variable) -> String? {
        if let config = environment("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            return config + "/cliptab/cliptab.conf"
        }
        if let home = environment("HOME"), home.hasPrefix("/") {
            return home + "/.config/cliptab/cliptab.conf"
        }
        return nil
    }

    /// The process environment's value of `name`.
    public static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
