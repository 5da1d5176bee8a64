// SPDX-License-Identifier: MIT

import CliptabCore
import Testing

@Suite("DecimalText")
struct DecimalTextTests {
    @Test(
        "accepts sign, digits and an optional fraction",
        arguments: [
            ("0", "0"), ("-3", "-3"), ("2.5", "2.5"), ("+0.50", "0.5"), ("-0", "0"), ("+0", "0"),
            ("-0.000", "0"), ("007", "7"), ("00.100", "0.1"), ("-12.340", "-12.34"), ("10", "10"),
            ("100.0", "100"),
        ])
    func accepts(_ entry: (String, String)) throws {
        let (text, canonical) = entry
        let value = try #require(DecimalText(text))
        #expect(value.description == canonical)
    }

    @Test(
        "refuses everything else",
        arguments: [
            "", " 1", "1 ", "--1", "+-1", "-", "+", "1e5", "1E5", "0x1", "NaN", "nan", "inf", "Infinity",
            ".5", "5.", ".", "-.5", "1.2.3", "1,5", "١٢", "１", "1\n", "\t1", "1_000", "½", "+ 1",
        ])
    func refuses(_ text: String) {
        #expect(DecimalText(text) == nil, "\(text.debugDescription)")
    }

    // Each entry is strictly less than the next; equal spellings share a group.
    private static let ascending: [[String]] = [
        ["-" + String(repeating: "9", count: 400)],
        ["-1000000000000000000000"],
        ["-100"],
        ["-99.99"],
        ["-10", "-010.0"],
        ["-2.5", "-2.50"],
        ["-2.49999999999999999999999"],
        ["-2"],
        ["-0.001"],
        ["0", "-0", "+0", "0.0", "-0.00", "000"],
        ["0.001"],
        ["0.01", "0.010"],
        ["0.1"],
        ["1", "+1", "1.0", "01"],
        ["1.00000000000000000000001"],
        ["1.5"],
        ["2", "2.000"],
        ["9"],
        ["10"],
        ["18446744073709551615"],
        ["18446744073709551616"],
        [String(repeating: "9", count: 399)],
        ["1" + String(repeating: "0", count: 399)],
        ["1" + String(repeating: "0", count: 399) + "." + String(repeating: "0", count: 399) + "1"],
    ]

    @Test("orders numerically, exact at any length")
    func ordering() throws {
        let groups = try Self.ascending.map { try $0.map { try #require(DecimalText($0), "\($0)") } }
        for (i, group) in groups.enumerated() {
            for (j, other) in groups.enumerated() {
                for a in group {
                    for b in other {
                        #expect((a < b) == (i < j), "\(a) < \(b)")
                        #expect((a == b) == (i == j), "\(a) == \(b)")
                        #expect((a >= b) == (i >= j), "\(a) >= \(b)")
                    }
                }
            }
        }
    }

    @Test("equal values hash alike")
    func hashing() throws {
        let spellings = ["-0", "0", "+0.000", "00"]
        let values = Set(try spellings.map { try #require(DecimalText($0)) })
        #expect(values.count == 1)
        #expect(Set(try ["1.5", "1.50", "2"].map { try #require(DecimalText($0)) }).count == 2)
    }
}
