// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import CliptabDaemon
import DBus
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// D-Bus activation: a private bus whose services directory holds a copy of the shipped
/// activation file starts cliptabd on the first call to its name.
@Suite(.serialized)
struct ActivationTests {
    /// Calls a method of the bus daemon itself.
    static func busCall(_ client: BusConnection, _ member: String, _ name: String) throws -> [BusValue] {
        let message = try BusMessage.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: member)
        try message.append([.string(name)])
        return try client.call(message, timeoutMilliseconds: 10_000).readValues()
    }

    /// A bus configuration like the session bus's, with `services` as its only services
    /// directory.
    static func busConfiguration(socketDirectory: String, services: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=\(socketDirectory)</listen>
          <auth>EXTERNAL</auth>
          <servicedir>\(services)</servicedir>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """
    }

    @Test func firstCallStartsTheDaemon() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-activation")
        let services = directory.appending("services")
        let data = directory.appending("data")
        let config = directory.appending("cliptab.conf")
        try writeFile(config, "[table \"activated\"]\n")

        // The shipped file, with the built daemon and a private store and configuration.
        let template = try Repository.text("systemd/\(CliptabBus.name).service")
        let generated = template.replacingOccurrences(of: "@bindir@", with: BuiltProducts.directory)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("Exec=") ? "\($0) --data-dir \(data) --config \(config)" : String($0) }
            .joined(separator: "\n")
        #expect(generated.contains("Exec=\(BuiltProducts.path(of: "cliptabd")) --data-dir"))
        try writeFile("\(services)/\(CliptabBus.name).service", generated)
        let busConfig = directory.appending("bus.conf")
        try writeFile(busConfig, Self.busConfiguration(socketDirectory: directory.path, services: services))

        let bus = try PrivateBus(configFile: busConfig)
        defer { bus.stop() }
        let client = try BusConnection.connect(address: bus.address)
        #expect(try Self.busCall(client, "NameHasOwner", CliptabBus.name) == [.boolean(false)])
        var activatedPID: pid_t = 0
        defer {
            // The daemon is the bus daemon's child: stop it by its pid before the bus.
            if activatedPID > 0 {
                kill(activatedPID, SIGTERM)
                _ = eventually(within: 30_000) { kill(activatedPID, 0) != 0 }
                kill(activatedPID, SIGKILL)
            }
        }

        // The first call, from a tool nobody here wrote, starts the daemon and is answered.
        let send = try ChildProcess.run(
            "dbus-send",
            [
                "--bus=\(bus.address)", "--print-reply", "--reply-timeout=20000", "--dest=\(CliptabBus.name)",
                CliptabBus.path, "\(CliptabBus.interface).ListTables",
            ], timeoutMilliseconds: 30_000)
        if case .uint32(let pid) = try Self.busCall(client, "GetConnectionUnixProcessID", CliptabBus.name)
            .first
        {
            activatedPID = pid_t(pid)
        }
        #expect(send.termination == .exited(0), "dbus-send: \(send.errorText)")
        #expect(send.outputText.contains("string \"activated\""), "reply: \(send.outputText)")
        #expect(activatedPID > 0)

        // It is our daemon, on its private store, and it serves the project's own client too.
        let commandLine =
            (try? String(contentsOfFile: "/proc/\(activatedPID)/cmdline", encoding: .utf8)) ?? ""
        #expect(
            commandLine.split(separator: "\0").first.map(String.init) == BuiltProducts.path(of: "cliptabd"))
        #expect(commandLine.contains(data))
        #expect(exists("\(data)/cliptab.db"))
        let call = try CliptabClient.message("CreateTable", [.string("second")])
        _ = try client.call(call, timeoutMilliseconds: 10_000)
        let list = try CliptabClient.message("ListTables")
        #expect(
            stringList(try client.call(list, timeoutMilliseconds: 10_000).readValues()) == [
                "activated", "second",
            ])

        // Stopped by its pid, it gives its name up.
        kill(activatedPID, SIGTERM)
        #expect(
            try eventually { try Self.busCall(client, "NameHasOwner", CliptabBus.name) == [.boolean(false)] })
        #expect(eventually(within: 30_000) { kill(activatedPID, 0) != 0 })
        activatedPID = 0

        // With no daemon running, the first `cliptab` call starts it again and is answered.
        let tables = try ChildProcess.run(
            BuiltProducts.path(of: "cliptab"), ["--timeout", "20", "tables"],
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": String(cString: getenv("PATH")),
                "HOME": data,
            ], timeoutMilliseconds: 30_000)
        if case .uint32(let pid) = try Self.busCall(client, "GetConnectionUnixProcessID", CliptabBus.name)
            .first
        {
            activatedPID = pid_t(pid)
        }
        #expect(tables.termination == .exited(0), "cliptab: \(tables.errorText)")
        #expect(tables.outputText == "activated\nsecond\n")
        #expect(activatedPID > 0)
    }
}
