// SPDX-License-Identifier: MIT
import Foundation
import Posix
import TestSupport

/// One machine of a test: a built `cliptabd` with its own home, bus and store, following
/// its own folder of linked tables (`[tables] dir` in its `cliptab.conf`), and the built
/// `cliptab` run against it.
public final class Machine {
    /// The daemon, its bus and its home.
    public let daemon: DaemonProcess
    /// The folder the daemon follows.
    public let folder: String

    /// Starts a daemon whose `cliptab.conf` is `[tables] dir = FOLDER` followed by `config`.
    ///
    /// `folder` nil puts the folder at `tables` in the home. `prepare` runs on the
    /// home and the folder's path before the start (files put there are applied at the start).
    public init(
        name: String, folder: String? = nil, config: String = "",
        prepare: (TemporaryDirectory, String) throws -> Void = { _, _ in }
    ) throws {
        var chosen = folder
        daemon = try DaemonProcess(
            config: nil, homePrefix: "cliptab-\(name)",
            prepare: { home in
                let path = folder ?? home.appending("tables")
                chosen = path
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                try FileManager.default.createDirectory(
                    atPath: home.appending(".config/cliptab"), withIntermediateDirectories: true)
                try "[tables]\ndir = \(path)\n\(config)".write(
                    toFile: home.appending(".config/cliptab/cliptab.conf"), atomically: true, encoding: .utf8)
                try prepare(home, path)
            })
        self.folder = chosen ?? ""
    }

    /// The environment of a client of this machine's session.
    public var clientEnvironment: [String: String] {
        var environment = DaemonProcess.environment(bus: daemon.bus, home: daemon.home)
        environment["XDG_DATA_HOME"] = daemon.home.appending("client-data")
        return environment
    }

    /// Runs the built `cliptab` with `arguments` in this machine's session.
    public func cliptab(_ arguments: String..., input: String? = nil, environment: [String: String] = [:])
        throws -> CommandResult
    {
        try cliptab(arguments, input: input, environment: environment)
    }

    /// Runs the built `cliptab` with the argument list `arguments` in this machine's session.
    public func cliptab(_ arguments: [String], input: String? = nil, environment: [String: String] = [:])
        throws -> CommandResult
    {
        try ChildProcess.run(
            BuiltProducts.path(of: "cliptab"), arguments,
            environment: clientEnvironment.merging(environment) { $1 }, input: input.map { Array($0.utf8) },
            timeoutMilliseconds: 30_000)
    }

    /// The path of `name` in the folder.
    public func file(_ name: String) -> String { folder + "/" + name }

    /// Stops the daemon and its bus.
    public func stop() { daemon.stop() }
}

/// Two machines (two daemons, two homes, two buses) whose folders a test keeps in step with
/// a real sync tool: git in a shared bare repository, or Syncthing.
public final class TwoMachines {
    /// The first machine.
    public let first: Machine
    /// The second machine.
    public let second: Machine

    /// Starts both; `folders` names each one's folder (nil: `tables` in its home), `prepare`
    /// runs on each before its start.
    public init(
        folders: (String?, String?) = (nil, nil), config: String = "",
        prepare: (TemporaryDirectory, String) throws -> Void = { _, _ in }
    ) throws {
        first = try Machine(name: "first", folder: folders.0, config: config, prepare: prepare)
        do {
            second = try Machine(name: "second", folder: folders.1, config: config, prepare: prepare)
        } catch {
            first.stop()
            throw error
        }
    }

    /// Starts both on the two folders `pair` keeps in step: the first machine follows the
    /// pair's folder on `a`, the second the one on `b` (files already there are applied at
    /// each start).
    public convenience init(syncedBy pair: SyncthingPair, config: String = "") throws {
        try self.init(folders: (pair.folderPath(on: .a), pair.folderPath(on: .b)), config: config)
    }

    /// Stops both daemons and their buses.
    public func stop() {
        first.stop()
        second.stop()
    }
}
