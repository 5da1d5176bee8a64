// SPDX-License-Identifier: MIT
import DBus
import Glibc

/// The process that owns a bus name, as far as the bus and /proc tell: whether it is a
/// cliptabd, so that a daemon losing its name to another program (a squatter) fails
/// instead of stopping as if it had been replaced.
struct NameOwner {
    /// The owner's process id; nil when the bus did not say (no owner, or no answer).
    let pid: UInt32?
    /// The file name of the owner's executable (`/proc/PID/exe`), or its `comm` when that
    /// link cannot be read.
    let program: String?

    /// True when the owner runs an executable named `cliptabd`: a `cliptabd --replace`.
    var isCliptabd: Bool { program == "cliptabd" }

    /// "PID 123 (python3)", or what is known of the owner, for a log line.
    var description: String {
        guard let pid else { return "a client whose process the bus did not name" }
        return "PID \(pid) (\(program ?? "unknown program"))"
    }

    /// Asks the bus which process owns `name` now (a blocking round trip of at most 2 s).
    static func of(_ name: String, on bus: BusConnection) -> NameOwner {
        guard
            let message = try? BusMessage.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID"),
            (try? message.append([.string(name)])) != nil,
            let reply = try? bus.call(message, timeoutMilliseconds: 2_000),
            case .uint32(let pid)? = try? reply.readValues().first
        else { return NameOwner(pid: nil, program: nil) }
        return NameOwner(pid: pid, program: program(of: pid))
    }

    /// The file name of the executable of process `pid`, or its `comm`.
    static func program(of pid: UInt32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        if count > 0 {
            let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // A replaced binary's link ends in " (deleted)" while it runs.
            let file = path.split(separator: "/").last.map(String.init) ?? path
            return file.hasSuffix(" (deleted)") ? String(file.dropLast(10)) : file
        }
        guard let file = fopen("/proc/\(pid)/comm", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 64)
        guard fgets(&line, Int32(line.count), file) != nil else { return nil }
        let comm = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return comm.hasSuffix("\n") ? String(comm.dropLast()) : comm
    }
}
