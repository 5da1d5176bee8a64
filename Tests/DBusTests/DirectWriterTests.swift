// SPDX-License-Identifier: MIT
import DBus
import Testing

/// The direct `a(ts)` writer gives the very message the boxed values give, and refuses what
/// `append` refuses, before writing anything.
@Suite struct DirectWriterTests {
    /// A fresh signal message to append to.
    func message() throws -> BusMessage {
        try BusMessage.signal(path: "/io/test", interface: "io.test.Iface", member: "Something")
    }

    /// Written directly and written boxed, the same rows read back the same, after other values.
    @Test func sameAsBoxed() throws {
        let rows: [(UInt64, String)] = [
            (1, ""), (2, "a"), (.max, "ünïcödé ✓\nline"), (7, String(repeating: "x", count: 1_000)),
        ]
        for count in [0, 1, rows.count] {
            let direct = try message()
            try direct.append([.string("before")])
            try direct.appendIDTextArray(count: count) { rows[$0] }
            let boxed = try message()
            try boxed.append([
                .string("before"),
                .array(
                    elementSignature: "(ts)",
                    rows.prefix(count).map { .structure([.uint64($0.0), .string($0.1)]) }),
            ])
            #expect(direct.signature == "sa(ts)")
            #expect(try direct.readValues() == boxed.readValues())
            // The message stays usable: more values go after the array.
            try direct.append([.uint32(5)])
            #expect(try direct.readValues().last == .uint32(5))
        }
    }

    /// A NUL in a text is refused by name, and nothing is appended.
    @Test func nulRefused() throws {
        let target = try message()
        let error = #expect(throws: BusError.self) {
            try target.appendIDTextArray(count: 2) { $0 == 0 ? (1, "fine") : (2, "nul\u{0}here") }
        }
        #expect(error?.name == BusErrorName.invalidArgs)
        #expect(error?.message.contains("element 1") == true)
        #expect(target.signature == "")
    }

    /// The direct reader gives back what the direct writer wrote, and refuses any other body.
    @Test func readerGivesBackTheRows() throws {
        let rows: [(UInt64, String)] = [
            (1, ""), (.max, "ünïcödé ✓\nline"), (7, String(repeating: "x", count: 1_000)),
        ]
        for count in [0, 1, rows.count] {
            let written = try message()
            try written.appendIDTextArray(count: count) { rows[$0] }
            let read = try written.readIDTextArray()
            #expect(read == rows.prefix(count).map { BusIDText(id: $0.0, text: $0.1) })
        }
        let three = try message()
        try three.appendIDTextArray(count: 3) { rows[$0] }
        let error = #expect(throws: BusError.self) { try three.readIDTextArray(maximumElements: 2) }
        #expect(error?.name == BusErrorName.limitsExceeded)

        let other = try message()
        try other.append([.string("before")])
        try other.appendIDTextArray(count: 1) { rows[$0] }
        let mismatch = #expect(throws: BusError.self) { try other.readIDTextArray() }
        #expect(mismatch?.message.contains("\"sa(ts)\"") == true)
    }
}
