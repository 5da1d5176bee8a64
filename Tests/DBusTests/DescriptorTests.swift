// SPDX-License-Identifier: MIT
import DBus
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// Calls that carry Unix file descriptors, sent by a GLib client (`DescriptorFlood`) through
/// a real dbus-daemon: a connection holds few of them at any time, whatever arrives, and
/// refuses every such call with `NotSupported`, its descriptors closed.
@Suite(.serialized)
struct DescriptorTests {
    /// A session bus that lets a message carry the kernel's 253 descriptors, as dbus-daemon's
    /// default of 16 does not (another bus, or another configuration, may).
    static let permissiveConfig = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
          <limit name="max_incoming_unix_fds">250000000</limit>
          <limit name="max_outgoing_unix_fds">250000000</limit>
          <limit name="max_message_unix_fds">253</limit>
        </busconfig>
        """

    /// How many of this process's descriptors are open on `path`.
    static func descriptors(on path: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path
        }.count
    }

    /// Calls carrying descriptors, all sent at once to a connection that first only reads,
    /// then serves.
    ///
    /// 200 calls of 16 descriptors each (the session bus's own limit per message), then 50
    /// of 64 through a bus that lets them through. The connection never holds more than its bound of descriptors,
    /// stays connected, refuses every call, and closes every descriptor.
    @Test(arguments: [16, 64])
    func callsCarryingDescriptorsAreRefusedAndClosed(perCall: Int) throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-descriptors")
        let marker = directory.appending("marker")
        #expect(FileManager.default.createFile(atPath: marker, contents: Data()))
        var config: String?
        if perCall > 16 {
            config = directory.appending("bus.conf")
            try Self.permissiveConfig.write(
                toFile: directory.appending("bus.conf"), atomically: true, encoding: .utf8)
        }
        let bus = try PrivateBus(configFile: config)
        let server = try BusConnection.connect(address: bus.address)
        try server.registerObject(
            path: Echo.path, interfaces: Echo.interfaces(state: EchoState(), connection: nil))
        let calls = 3200 / perCall
        let sender = try ChildProcess.spawn(
            DescriptorFlood.python,
            DescriptorFlood.arguments(
                address: bus.address, destination: server.uniqueName, path: Echo.path,
                interface: Echo.interface,
                member: "EchoString", body: "('x',)", calls: calls, perCall: perCall, window: calls,
                descriptorPath: marker), stdout: .pipe, stderr: .pipe)
        defer { sender.terminate(graceMilliseconds: 1000) }
        let bound = BusConnection.maximumReceivedUnixFDs + BusConnection.maximumUnixFDsPerMessage - 1
        var most = 0

        // Reading only, as a daemon busy with one call does: libdbus stops at its bound.
        let deadline = MonotonicClock.milliseconds() + 60_000
        while MonotonicClock.milliseconds() < deadline {
            most = max(most, Self.descriptors(on: marker))
            var polled = server.pollDescriptors()
            guard polled.contains(where: { $0.events & Int16(POLLIN) != 0 }), most < calls * perCall else {
                break
            }
            _ = poll(&polled, nfds_t(polled.count), 1000)
            server.handle(polled)
        }
        #expect(most >= BusConnection.maximumReceivedUnixFDs, "fewer descriptors arrived than the bound")
        #expect(most <= bound, "the connection held \(most) descriptors while it did not dispatch")

        // Serving: every call is refused as it is dispatched, until the sender has its answers.
        var outcome: String?
        while outcome == nil && server.isConnected && MonotonicClock.milliseconds() < deadline {
            server.dispatchAll()
            most = max(most, Self.descriptors(on: marker))
            var polled =
                server.pollDescriptors() + [
                    pollfd(fd: sender.standardOutput, events: Int16(POLLIN), revents: 0)
                ]
            _ = poll(&polled, nfds_t(polled.count), 1000)
            server.handle(polled)
            if polled.last.map({ $0.revents != 0 }) == true {
                outcome = sender.readLine(timeoutMilliseconds: 1000)
            }
        }
        #expect(server.isConnected, "the connection was lost")
        #expect(outcome == "done: \(calls) refused (NotSupported)")
        #expect(most <= bound, "the connection held \(most) descriptors while it served")
        server.dispatchAll()
        #expect(Self.descriptors(on: marker) == 0, "descriptors of refused calls are still open")
    }
}
