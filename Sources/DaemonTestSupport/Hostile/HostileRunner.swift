// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import Foundation
import Posix
import TestSupport

/// Runs one hostile case against a fresh daemon (with its own Xvfb) while a second client
/// probes `GetCell` every 50 ms and a third reads a 1 MiB clipboard text with `xclip -o`,
/// and measures what it cost.
public enum HostileRunner {
    /// The size of the clipboard text the third client reads.
    public static let clipboardBytes = 1 << 20
    /// The daemon's address-space limit: a case that balloons fails its allocation and
    /// shows as a dead daemon instead of taking the machine's memory.
    public static let addressSpaceLimitBytes = 3 << 30
    /// The daemon's soft limit of open descriptors: the one systemd gives a user service
    /// (`DefaultLimitNOFILE=1024:524288`), whatever the unit asks for, so that the catalogue
    /// holds where a unit raises none.
    public static let descriptorSoftLimit = 1024

    /// Runs `hostile`; `daemonExecutable` defaults to the `cliptabd` built beside the tests.
    public static func run(_ hostile: HostileCase, daemonExecutable: String? = nil) throws
        -> HostileMeasurement
    {
        let cliptabd = daemonExecutable ?? BuiltProducts.path(of: "cliptabd")
        // prlimit sets the limits and execs the daemon: the pid stays the daemon's.
        let limits = ["--as=\(addressSpaceLimitBytes)", "--nofile=\(descriptorSoftLimit):"]
        let daemon = try DaemonProcess(
            arguments: limits + ["--", cliptabd], withDisplay: true, executable: "prlimit",
            homePrefix: "cliptab-hostile")
        defer { daemon.stop() }
        try prepare(daemon, hostile)
        let canary = try daemon.cliptab().exportTable("canary", format: "json")
        resetPeak(of: daemon.process.pid)
        let startKiB = field("VmRSS:", of: daemon.process.pid)

        let probe = GetCellProbe(address: daemon.bus.address, table: "probe")
        let context = try HostileContext(daemon: daemon, probe: probe)
        let clipboard =
            hostile.readsClipboard
            ? ClipboardProbe(environment: daemon.environment, expectedBytes: clipboardBytes) : nil
        // The attack starts once both probes have been answered.
        probe.awaitCalls(2)
        clipboard?.awaitReads(1)
        let start = MonotonicClock.milliseconds()
        let outcome: String
        do {
            outcome = try hostile.attack(context)
        } catch {
            outcome = "failed: \(error)"
        }
        let attackMilliseconds = MonotonicClock.milliseconds() - start
        // The probes go on a little: work a call left behind shows here too.
        probe.awaitCalls(4)
        clipboard?.awaitReads(1)
        let probed = probe.stop()
        let read = clipboard?.stop()
        let survived = daemon.process.isRunning
        let peak = field("VmHWM:", of: daemon.process.pid)
        let busPeak = field("VmHWM:", of: daemon.bus.process.pid)
        let after = survived ? try? daemon.cliptab().exportTable("canary", format: "json") : nil
        return HostileMeasurement(
            name: hostile.name, probeWorstMilliseconds: probed.worstMilliseconds, probeCalls: probed.calls,
            probeFailures: probed.failures, clipboardWorstMilliseconds: read?.worstMilliseconds,
            clipboardReads: read?.reads ?? 0, clipboardFailures: read?.failures ?? [],
            attackMilliseconds: attackMilliseconds, outcome: outcome, peakKiB: peak, startKiB: startKiB,
            busPeakKiB: busPeak,
            largestMessageBytes: hostile.largestMessageBytes, daemonSurvived: survived,
            canaryUnchanged: after == canary)
    }

    /// Makes the canary, the probe's table, the clipboard's 1 MiB text (copied) and the
    /// case's table `t`.
    private static func prepare(_ daemon: DaemonProcess, _ hostile: HostileCase) throws {
        let client = daemon.cliptab(timeout: 60_000)
        try client.createTable("canary")
        try client.insertRows(TableCell("canary", section: 0, row: 0), (0..<100).map { "canary row \($0) ✓" })
        try client.createTable("probe")
        try client.insertRows(TableCell("probe", section: 0, row: 0), ["probe"])
        try client.createTable("clip")
        let text = String(repeating: "clipboard text, 1 MiB. ", count: clipboardBytes / 23 + 1)
        try client.insertRows(TableCell("clip", section: 0, row: 0), [String(text.prefix(clipboardBytes))])
        try client.copy(TableCell("clip", section: 0, row: 0))
        try hostile.prepare(daemon)
        guard hostile.rows > 0 else { return }
        try client.createTable("t")
        var inserted = 0
        while inserted < hostile.rows {
            let batch = min(10_000, hostile.rows - inserted)
            try client.insertRows(
                TableCell("t", section: 0, row: Int32(inserted)),
                Array(repeating: hostile.rowText, count: batch))
            inserted += batch
        }
    }

    /// Resets the peak resident size (VmHWM) of process `pid` to its current size.
    private static func resetPeak(of pid: pid_t) {
        try? "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)
    }

    /// The number after `name` in /proc/PID/status; 0 when absent.
    static func field(_ name: String, of pid: pid_t) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
        }
        return 0
    }
}
