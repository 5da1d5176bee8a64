// SPDX-License-Identifier: MIT
import Posix
import TestSupport
import Testing

@testable import X11Desktop

/// Clipboard reads waiting for their owners: bounded in number, completed first-in
/// first-out, and received into a fixed pool of properties.
@Suite(.serialized)
struct PendingReadTests {
    /// What one read ended with: its number, and the error's kind (or "text").
    struct Ending: Equatable, CustomStringConvertible {
        let index: Int
        let kind: String
        var description: String { "\(index):\(kind)" }
    }

    static func kind(_ result: Result<[UInt8], SelectionReadError>) -> String {
        switch result {
        case .success: "text"
        case .failure(.busy): "busy"
        case .failure(.timedOut): "timedOut"
        case .failure(.empty): "empty"
        case .failure(.tooLarge): "tooLarge"
        case .failure(.unavailable): "unavailable"
        }
    }

    /// A second client that owns CLIPBOARD and never answers (it handles no events).
    static func hungOwner(_ harness: Harness) throws -> SelectionService {
        let owner = try SelectionService.connect(display: harness.display.display)
        try owner.own(.clipboard, text: Array("never delivered".utf8), secret: false)
        return owner
    }

    /// Runs the harness's loop until `done` or 10 s.
    static func run(_ harness: Harness, until done: () -> Bool) {
        let deadline = MonotonicClock.milliseconds() + 10_000
        while !done() && MonotonicClock.milliseconds() < deadline { harness.step(milliseconds: 20) }
    }

    @Test("reads past the cap fail at once; the others time out in order; properties are reused")
    func boundedAndPooled() throws {
        let harness = try Harness(configuration: SelectionConfiguration(maximumPendingReads: 4))
        let owner = try Self.hungOwner(harness)
        for round in 0..<5 {
            var endings: [Ending] = []
            for index in 0..<6 {
                harness.service.readText(.clipboard, timeoutMilliseconds: 200, maxBytes: 1 << 10) { result in
                    endings.append(Ending(index: index, kind: Self.kind(result)))
                }
            }
            #expect(harness.service.pendingReadCount == 4)
            Self.run(harness) { endings.count == 6 }
            #expect(
                endings == [
                    Ending(index: 4, kind: "busy"), Ending(index: 5, kind: "busy"),
                    Ending(index: 0, kind: "timedOut"), Ending(index: 1, kind: "timedOut"),
                    Ending(index: 2, kind: "timedOut"), Ending(index: 3, kind: "timedOut"),
                ], "round \(round): \(endings)")
        }
        // Twenty reads timed out, each abandoning its property; the pool holds eight.
        #expect(harness.service.readPropertyCount <= 8)
        _ = owner
    }

    @Test("reads that end at once after a queue complete in order, without recursion")
    func firstInFirstOut() throws {
        let count = 200
        let harness = try Harness(configuration: SelectionConfiguration(maximumPendingReads: count))
        let owner = try Self.hungOwner(harness)
        var endings: [Ending] = []
        for index in 0..<count {
            let timeout = index == 0 ? 300 : 10_000
            harness.service.readText(.clipboard, timeoutMilliseconds: timeout, maxBytes: 1 << 10) { result in
                endings.append(Ending(index: index, kind: Self.kind(result)))
            }
        }
        // The first read waits for the hung owner; meanwhile this client takes the clipboard,
        // so every later read is answered from its own text the moment the first one ends.
        try harness.service.own(.clipboard, text: Array("ours".utf8), secret: false)
        Self.run(harness) { endings.count == count }
        #expect(endings.map(\.index) == Array(0..<count))
        #expect(endings.first?.kind == "timedOut")
        #expect(endings.dropFirst().allSatisfy { $0.kind == "text" })
        _ = owner
    }
}
