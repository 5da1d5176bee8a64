// SPDX-License-Identifier: MIT
import Foundation
import TestSupport
import Testing

/// The rule that clients call the daemon through `CliptabClient`'s typed methods: outside
/// `Sources/CliptabClient`, no source file calls a method by its name string.
struct TypedClientShapeTests {
    /// How a call by name is written: the client's generic entry points.
    static let byName = [".call(\"", "CliptabClient.call(", "CliptabClient.message(", "replyMessage("]

    /// Files that still call by name, each with why.
    static let allowed: [String: String] = [
        // Hostile clients send raw, malformed and flooding messages on purpose: they test the
        // wire, as the daemon's own interface tests do.
        "Sources/DaemonTestSupport/Hostile/HostileCatalogue+Names.swift": "hostile wire traffic",
        "Sources/DaemonTestSupport/Hostile/HostileCatalogue.swift": "hostile wire traffic",
        "Sources/DaemonTestSupport/Hostile/GetCellProbe.swift": "hostile wire traffic",
        "Sources/DaemonTestSupport/Hostile/HostileContext.swift": "hostile wire traffic",
        // The by-name helpers of the daemon's interface tests (which test the wire).
        "Sources/DaemonTestSupport/DaemonProcess.swift": "interface tests' helper",
        "Sources/DaemonTestSupport/Cliptab.swift": "interface tests' helper",
        // The benchmarks measure the wire itself: pipelined raw messages, replies undecoded,
        // each budget case's call as it is sent.
        "Sources/cliptab-bench/BusBenchmark.swift": "measures the wire",
        "Sources/cliptab-bench/SoakBenchmark.swift": "measures the wire",
        "Sources/cliptab-bench/LoadBenchmark.swift": "measures the wire",
        "Sources/cliptab-bench/BudgetBenchmark.swift": "measures the wire",
        "Sources/cliptab-bench/TableFileBenchmark.swift": "measures the wire",
    ]

    @Test func noSourceCallsTheDaemonByName() throws {
        let root = URL(fileURLWithPath: Repository.root)
        let sources = root.appendingPathComponent("Sources")
        guard let files = FileManager.default.enumerator(atPath: sources.path) else {
            throw TypedClientShapeError("cannot list \(sources.path)")
        }
        var checked = 0
        var offenders: [String] = []
        for case let relative as String in files where relative.hasSuffix(".swift") {
            let path = "Sources/" + relative
            if path.hasPrefix("Sources/CliptabClient/") || Self.allowed[path] != nil { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.byName.contains(where: { line.contains($0) }) {
                offenders.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
            checked += 1
        }
        #expect(
            offenders.isEmpty,
            "call the daemon through CliptabClient's typed methods:\n\(offenders.joined(separator: "\n"))")
        #expect(checked > 100)
        // An allowed file that no longer calls by name leaves the list.
        for path in Self.allowed.keys.sorted() {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            #expect(
                Self.byName.contains { text.contains($0) },
                "\(path) calls by name no more: take it off the list")
        }
    }
}

/// A repository file that cannot be read.
struct TypedClientShapeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
