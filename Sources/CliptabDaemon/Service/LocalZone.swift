// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabCore
import Glibc

/// The time zone and clock that `{date}` and `{time}` show: the zone chosen as the C library
/// chooses it (`TZ` naming a zone file, else `/etc/localtime`), read into the core's rules.
///
/// Read at the start and on every reload, never for a copy: a copy does no file I/O.
public enum LocalZone {
    /// Where the system keeps its zone files.
    static let zoneDirectory = "/usr/share/zoneinfo/"

    /// The zone `environment`'s `TZ` names (`Europe/Berlin`, `:Europe/Berlin`, a path), or
    /// `/etc/localtime` without it.
    ///
    /// UTC, with the reason, when it cannot be read. An empty `TZ` is UTC, as for the C
    /// library; a POSIX rule string in `TZ` is not understood.
    public static func load(environment: (String) -> String?) -> (zone: ZoneRules, problem: String?) {
        var name = "localtime"
        var path = "/etc/localtime"
        if let variable = environment("TZ") {
            let value = variable.hasPrefix(":") ? String(variable.dropFirst()) : variable
            if value.isEmpty || value == "UTC" { return (.utc, nil) }
            name = value
            path = value.hasPrefix("/") ? value : zoneDirectory + value
        }
        do {
            return (try ZoneRules(name: name, tzif: try read(path)), nil)
        } catch {
            return (.utc, "the time zone \(name) could not be read from \(path) (\(error)), so UTC is used")
        }
    }

    /// The clock: UTC seconds since 1970.
    public static func now() -> Int64 { Int64(time(nil)) }

    /// The bytes of the file at `path`: the one bounded read of a small file (a regular
    /// file of at most 1 MiB, never waiting on a FIFO), the configuration file's.
    private static func read(_ path: String) throws -> [UInt8] {
        try ConfigFile.read(path: path)
    }
}
