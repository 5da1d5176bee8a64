// SPDX-License-Identifier: MIT
import DBus
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// Exit 69: no bus, no daemon, a daemon or bus that does not answer; and activation.
@Suite struct ReachabilityTests {
    let startHint =
        "Start cliptabd with 'systemctl --user start cliptabd', or run 'cliptabd' in your desktop session.\n"
    /// What a bus that takes the socket and never answers costs a command: 69, saying so.
    var silentBus: Outcome {
        Outcome(
            69, "",
            "cliptab: the session bus did not answer within the timeout (--timeout, default 5 s).\n"
                + startHint)
    }

    /// No `DBUS_SESSION_BUS_ADDRESS`: 69, saying so.
    @Test func noSessionBusAddress() throws {
        let outcome = try runCliptab(
            ["tables"], environment: CLIFixture.environment(bus: nil, home: "/nonexistent"))
        #expect(
            outcome
                == Outcome(
                    69, "",
                    "cliptab: cannot connect to the session bus: DBUS_SESSION_BUS_ADDRESS is not set, so the session "
                        + "bus cannot be found (run inside a desktop session, or set it to the bus address) "
                        + "(org.freedesktop.DBus.Error.BadAddress)\n" + startHint))
    }

    /// Nobody listens at the address: 69.
    @Test func connectionRefused() throws {
        let address = "unix:abstract=/cliptab-e2e-refused-\(getpid())"
        let outcome = try runCliptab(
            ["get", "t", "0:0"], environment: CLIFixture.environment(bus: address, home: "/nonexistent"))
        #expect(
            outcome
                == Outcome(
                    69, "",
                    "cliptab: cannot connect to the session bus: Failed to connect to socket "
                        + "/cliptab-e2e-refused-\(getpid()): Connection refused (org.freedesktop.DBus.Error.NoServer)\n"
                        + startHint))
    }

    /// A bus without cliptabd (and no activation): 69 with ServiceUnknown.
    @Test func busWithoutDaemon() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let outcome = try runCliptab(
            ["get", "t", "0:0"], environment: CLIFixture.environment(bus: bus.address, home: "/nonexistent"))
        #expect(
            outcome
                == Outcome(
                    69, "",
                    "cliptab: cannot reach cliptabd: The name io.github.cliptab.Cliptab1 was not provided by any "
                        + ".service files (org.freedesktop.DBus.Error.ServiceUnknown)\n" + startHint))
        // watch reports it too, before waiting for signals that would never come.
        let watch = try runCliptab(
            ["watch"], environment: CLIFixture.environment(bus: bus.address, home: "/nonexistent"))
        #expect(
            watch.status == 69
                && watch.err.hasSuffix("(org.freedesktop.DBus.Error.ServiceUnknown)\n" + startHint))
    }

    /// A stopped daemon: the call gives up at the timeout, with 69 and what to do.
    @Test func hungDaemonTimesOut() throws {
        let fixture = try CLIFixture()
        defer { fixture.stop() }
        #expect(try fixture.run("create", "t").status == 0)
        fixture.daemon.signal(SIGSTOP)
        defer { fixture.daemon.signal(SIGCONT) }
        let start = MonotonicClock.milliseconds()
        let outcome = try fixture.run("--timeout", "0.4", "get", "t", "0:0")
        let elapsed = MonotonicClock.milliseconds() - start
        #expect(
            outcome
                == Outcome(
                    69, "",
                    "cliptab: cliptabd did not answer within 0.4 s (org.freedesktop.DBus.Error.NoReply); it may be "
                        + "busy or hung, so a change asked for may still be made.\nTry again with a longer --timeout, "
                        + "or restart it with 'systemctl --user restart cliptabd'.\n"))
        #expect(elapsed >= 400 && elapsed < 3000, "took \(elapsed) ms")
        // The deadline covers every call of a command: @HEADER needs two here.
        let twoCalls = try fixture.run("get", "t", "@x:0", "--timeout", "0.3")
        #expect(
            twoCalls.status == 69 && twoCalls.err.hasPrefix("cliptab: cliptabd did not answer within 0.3 s"))
        fixture.daemon.signal(SIGCONT)
        #expect(try fixture.run("get", "t", "@x:0").status == 1, "answers again once continued")
    }

    /// A command that only calls sends its authentication, `Hello` and its call before the
    /// bus says a word (one round trip, `BusCallLink`); a bus that never answers costs it
    /// the timeout and is reported as a bus that did not answer.
    @Test func theCallLeavesWithTheAuthentication() throws {
        let stand = try StandInBus()
        // Never answers: only records what comes.
        stand.respond { _ in nil }
        let outcome = try runCliptab(
            ["--timeout", "0.4", "tables"],
            environment: CLIFixture.environment(bus: stand.address, home: "/nonexistent"))
        #expect(outcome == silentBus)
        let text = String(decoding: stand.received(), as: UTF8.self)
        #expect(text.contains("\r\nBEGIN\r\n"), "\(text.debugDescription)")
        #expect(text.contains("Hello"))
        #expect(text.contains("ListTables"))
    }

    /// A stopped bus accepts the connection and never answers: the call's deadline ends the
    /// wait (over libdbus, the connect watchdog would).
    @Test func hungBusTimesOut() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        bus.process.signal(SIGSTOP)
        defer { bus.process.signal(SIGCONT) }
        let start = MonotonicClock.milliseconds()
        let outcome = try runCliptab(
            ["--timeout", "0.3", "tables"],
            environment: CLIFixture.environment(bus: bus.address, home: "/nonexistent"))
        let elapsed = MonotonicClock.milliseconds() - start
        #expect(outcome == silentBus)
        #expect(elapsed >= 300 && elapsed < 3000, "took \(elapsed) ms")
    }

    /// The daemon stopping during a call is reported as such, not as a timeout.
    @Test func daemonExitsDuringCall() throws {
        let fixture = try CLIFixture()
        defer { fixture.stop() }
        fixture.daemon.signal(SIGSTOP)
        // A monitor of the bus sees the call pass: then it waits in the stopped daemon.
        let monitor = try BusConnection.connect(address: fixture.bus.address)
        let become = try BusMessage.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus.Monitoring", member: "BecomeMonitor")
        try become.append([
            .array(elementSignature: "s", [.string("type='method_call',member='ListTables'")]), .uint32(0),
        ])
        _ = try monitor.call(become, timeoutMilliseconds: 5000)
        let client = try ChildProcess.spawn(cliptabPath, ["tables"], environment: fixture.environment)
        var seen = false
        let deadline = MonotonicClock.milliseconds() + 10_000
        while !seen, MonotonicClock.milliseconds() < deadline,
            let message = monitor.readMessage(timeoutMilliseconds: 1000)
        {
            seen = message.member == "ListTables"
        }
        #expect(seen, "the bus passed on no ListTables call")
        fixture.daemon.signal(SIGKILL)
        #expect(client.waitForExit(timeoutMilliseconds: 5000) == .exited(69))
        var buffer: [UInt8] = []
        #expect(
            readLine(from: client.standardError, buffer: &buffer)?.hasPrefix(
                "cliptab: cliptabd stopped before it answered: ") == true)
    }

    /// With a D-Bus service file for cliptabd, the first call starts the daemon.
    @Test func activationStartsTheDaemon() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-activation")
        let services = directory.appending("services")
        mkdir(services, 0o700)
        try write(
            "[D-BUS Service]\nName=io.github.cliptab.Cliptab1\nExec=\(BuiltProducts.path(of: "cliptabd")) --data-dir \(directory.appending("store"))\n",
            to: services + "/io.github.cliptab.Cliptab1.service")
        try write(
            """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:tmpdir=\(directory.path)</listen>
              <servicedir>\(services)</servicedir>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """, to: directory.appending("bus.conf"))
        let bus = try PrivateBus(configFile: directory.appending("bus.conf"))
        defer { bus.stop() }
        let environment = CLIFixture.environment(bus: bus.address, home: directory.path)
        #expect(try runCliptab(["create", "started"], environment: environment) == Outcome(0, ""))
        #expect(try runCliptab(["tables"], environment: environment) == Outcome(0, "started\n"))
    }

    private func write(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw FixtureError("cannot write \(path)") }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        #expect(Glibc.write(descriptor, bytes, bytes.count) == bytes.count)
    }
}
