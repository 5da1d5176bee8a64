// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import TestSupport

/// The table files of the random calls (API version 4), and how their effect is told.
extension SignalReplicaTests.Generator {
    /// A small table file: sections with headers, rows with and without names.
    mutating func document() -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            text += "  - header: \"\(random.pick(["", "H", "Kopf"]))\"\n"
            let count = Int.random(in: 0...4, using: &random)
            text += count == 0 ? "    rows: []\n" : "    rows:\n"
            for _ in 0..<count {
                let word = random.pick(["a", "b", "apple", "2", "\"\"", "\"x\\ny\\n\""])
                text +=
                    "      - "
                    + (random.percent(25)
                        ? "{name: n\(Int.random(in: 0..<4, using: &random)), text: \(word)}" : word)
                    + "\n"
            }
        }
        return text.isEmpty ? "sections: []\n" : "sections:\n" + text
    }
}

extension SignalReplicaTests {
    /// Whether an `ApplyTable` call (not a dry run) changed rows or sections, by its counts.
    static func appliedContent(_ arguments: [BusValue], _ reply: [BusValue]?) -> Bool {
        guard case .dictionary(_, _, let options) = arguments[3], options.isEmpty,
            let reply, reply.count == 2, case .dictionary(_, _, let counts) = reply[1]
        else { return false }
        return counts.contains { $0.0 != s("settings_changed") && $0.1 != .uint32(0) }
    }
}
