// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabDaemon
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// The systemd user unit and the D-Bus activation file as shipped in `systemd/`.
@Suite(.serialized)
struct SystemdUnitTests {
    /// The `Key=value` lines of a unit-style file, section by section, in file order.
    static func directives(_ text: String) -> [(section: String, key: String, value: String)] {
        var section = ""
        var result: [(section: String, key: String, value: String)] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                section = String(line.dropFirst().dropLast())
            } else if let equals = line.firstIndex(of: "=") {
                result.append((section, String(line[..<equals]), String(line[line.index(after: equals)...])))
            }
        }
        return result
    }

    /// The values of `key` in `section`.
    static func values(_ text: String, _ section: String, _ key: String) -> [String] {
        directives(text).filter { $0.section == section && $0.key == key }.map(\.value)
    }

    /// `systemd-analyze verify --user` on the unit with the placeholder filled in, and with
    /// the man pages it names findable; prints nothing, also not a warning.
    @Test func systemdAcceptsTheUnit() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-unit")
        let unit = try Repository.text("systemd/cliptabd.service").replacingOccurrences(
            of: "@bindir@", with: BuiltProducts.directory)
        let result = try Self.verify(unit, in: directory)
        #expect(result.termination == .exited(0), "\(result.errorText)")
        #expect(result.errorText == "" && result.outputText == "")

        // The check can fail: systemd-analyze does report a key it does not know.
        let broken = try Self.verify(unit.replacingOccurrences(of: "UMask=", with: "UMask2="), in: directory)
        #expect(broken.errorText.contains("Unknown key"))
    }

    /// Runs `systemd-analyze --user verify` on `unit` written as `cliptabd.service` in
    /// `directory`, with the repository's man pages on `MANPATH`.
    static func verify(_ unit: String, in directory: TemporaryDirectory) throws -> CommandResult {
        for (page, section) in [("cliptab.1", "man1"), ("cliptab.conf.5", "man5"), ("cliptabd.8", "man8")] {
            try writeFile(
                directory.appending("man/\(section)/\(page)"), try Repository.text("config/man/\(page)"))
        }
        try writeFile(directory.appending("cliptabd.service"), unit)
        let runtime = directory.appending("runtime")
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return try ChildProcess.run(
            "systemd-analyze", ["--user", "verify", directory.appending("cliptabd.service")],
            environment: [
                "PATH": String(cString: getenv("PATH")), "HOME": directory.path, "XDG_RUNTIME_DIR": runtime,
                "MANPATH": directory.appending("man"), "LANG": "C.UTF-8", "SYSTEMD_LOG_COLOR": "0",
            ], timeoutMilliseconds: 60_000)
    }

    /// The unit is a D-Bus service of the graphical session, reload
    /// through the CLI, restart on failure but not on a bad configuration, and hardening
    /// that leaves the X connection alone.
    @Test func unitDirectives() throws {
        let unit = try Repository.text("systemd/cliptabd.service")
        func one(_ section: String, _ key: String) -> String? {
            let found = Self.values(unit, section, key)
            #expect(found.count == 1, "\(key)= in [\(section)] is set \(found.count) times")
            return found.first
        }
        #expect(one("Unit", "PartOf") == "graphical-session.target")
        #expect(one("Unit", "After") == "graphical-session.target")
        #expect(one("Install", "WantedBy") == "graphical-session.target")
        #expect(one("Service", "Type") == "dbus")
        // The memory cap fits the stated bound of one call (4 x a 128 MiB message + 64 MiB)
        // with room for the tables, and throttling starts above that bound.
        #expect(one("Service", "MemoryHigh") == "768M")
        #expect(one("Service", "MemoryMax") == "1G")
        // Past the descriptors the bus connection may hold (DBus's bounds) and the rest.
        #expect(one("Service", "LimitNOFILE") == "4096")
        #expect(one("Service", "BusName") == CliptabBus.name)
        #expect(one("Service", "ExecStart") == "@bindir@/cliptabd")
        #expect(one("Service", "ExecReload") == "@bindir@/cliptab reload")
        // A replaced daemon exits 0: a clean stop, which on-failure does not restart.
        #expect(one("Service", "Restart") == "on-failure")
        #expect(Self.values(unit, "Service", "RestartForceExitStatus").isEmpty)
        #expect(Self.values(unit, "Service", "SuccessExitStatus").isEmpty)
        // Only an edit of the file (78) or the user's mending of the store (65) helps.
        let prevented =
            one("Service", "RestartPreventExitStatus")?.split(separator: " ").map(String.init) ?? []
        #expect(prevented.contains(String(Daemon.configurationExitStatus)))
        #expect(prevented.contains(String(Daemon.unusableStoreExitStatus)))
        #expect(one("Service", "NoNewPrivileges") == "yes")
        #expect(one("Service", "UMask") == "0077")
        #expect(Self.values(unit, "Service", "SystemCallFilter").first == "@system-service")
        #expect(one("Service", "RestrictAddressFamilies") == "AF_UNIX AF_INET AF_INET6")
        for absent in [
            "PrivateTmp", "ProtectHome", "PrivateNetwork", "ProtectSystem", "PrivateUsers", "PrivateDevices",
        ] {
            #expect(Self.values(unit, "Service", absent).isEmpty, "\(absent)= would break the X connection")
        }
        let documentation = one("Unit", "Documentation") ?? ""
        for page in ["man:cliptabd(8)", "man:cliptab.conf(5)", "man:cliptab(1)"] {
            #expect(documentation.contains(page))
        }
    }

    /// The activation file is named after the bus name and hands over to the unit.
    @Test func activationFile() throws {
        let path = "systemd/\(CliptabBus.name).service"
        let text = try Repository.text(path)
        #expect(Self.values(text, "D-BUS Service", "Name") == [CliptabBus.name])
        #expect(Self.values(text, "D-BUS Service", "Exec") == ["@bindir@/cliptabd"])
        #expect(Self.values(text, "D-BUS Service", "SystemdService") == ["cliptabd.service"])
        #expect(Self.directives(text).count == 3)
    }
}
