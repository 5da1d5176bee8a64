// SPDX-License-Identifier: MIT
import DBus
import Testing

/// Values sent to the echo server on its own thread through a real dbus-daemon and back: the
/// writer, the bus's validator and the reader must all agree.
@Suite struct RoundTripTests {
    /// Variants nested `depth` deep around `inner`.
    static func nested(_ depth: Int, _ inner: BusValue = .int32(7)) -> BusValue {
        (0..<depth).reduce(inner) { value, _ in .variant(value) }
    }

    /// One value of every kind, extremes included; each is echoed inside a variant.
    static let cases: [BusValue] = [
        .byte(0), .byte(255), .boolean(true), .boolean(false),
        .int16(.min), .int16(.max), .uint16(0), .uint16(.max),
        .int32(.min), .int32(.max), .uint32(.max), .int64(.min), .int64(.max), .uint64(0), .uint64(.max),
        .double(.nan), .double(.infinity), .double(-.infinity), .double(.leastNonzeroMagnitude),
        .double(.greatestFiniteMagnitude), .double(-1.5),
        .string(""), .string("héllo wörld ✓ 日本語 🇫🇷 \u{10FFFF} \u{FFFE} tab\tnewline\n"),
        .objectPath("/"), .objectPath("/a/b_c/D9"), .signature(""), .signature("a{sa(ybnqiuxtdsogv)}"),
        .array(elementSignature: "s", []), .array(elementSignature: "(ts)", []),
        .array(elementSignature: "y", (0...255).map { .byte(UInt8($0)) }),
        .array(elementSignature: "b", [.boolean(true), .boolean(false)]),
        .array(elementSignature: "n", [.int16(.min), .int16(-1)]),
        .array(elementSignature: "q", [.uint16(.max)]),
        .array(elementSignature: "i", [.int32(.min), .int32(0), .int32(.max)]),
        .array(elementSignature: "u", [.uint32(.max)]),
        .array(elementSignature: "x", [.int64(.min)]),
        .array(elementSignature: "t", [.uint64(.max), .uint64(0)]),
        .array(elementSignature: "d", [.double(.nan), .double(0.25)]),
        .array(elementSignature: "s", [.string(""), .string("ü"), .string("a,b")]),
        .array(elementSignature: "o", [.objectPath("/x")]),
        .array(elementSignature: "g", [.signature("a{sv}")]),
        .array(
            elementSignature: "(ts)",
            [.structure([.uint64(.max), .string("max")]), .structure([.uint64(1), .string("")])]),
        .array(
            elementSignature: "as",
            [.array(elementSignature: "s", []), .array(elementSignature: "s", [.string("x")])]),
        .array(elementSignature: "a{sv}", [.dictionary(keySignature: "s", valueSignature: "v", [])]),
        .array(
            elementSignature: "v",
            [.variant(.string("in variant")), .variant(.array(elementSignature: "y", []))]),
        .dictionary(keySignature: "s", valueSignature: "v", []),
        .dictionary(
            keySignature: "s", valueSignature: "v",
            [
                (.string("a"), .variant(.int32(1))),
                (.string("b"), .variant(.array(elementSignature: "s", [.string("x")]))),
            ]),
        .dictionary(
            keySignature: "t", valueSignature: "as",
            [
                (.uint64(.max), .array(elementSignature: "s", [])),
                (.uint64(0), .array(elementSignature: "s", [.string("z")])),
            ]),
        .dictionary(
            keySignature: "o", valueSignature: "a{sv}",
            [(.objectPath("/p"), .dictionary(keySignature: "s", valueSignature: "v", []))]),
        .structure([
            .byte(1), .structure([.string("inner"), .variant(.double(2))]), .array(elementSignature: "i", []),
        ]),
        .variant(.variant(.int32(1))),
        // The top-level variant of EchoVariant adds one: 64 levels in all, the bus's limit.
        nested(63),
        nested(62, .array(elementSignature: "s", [.string("deep")])),
    ]

    @Test func everyKindOfValueSurvivesTheBusInsideAVariant() throws {
        let fixture = try EchoFixture()
        for (index, value) in Self.cases.enumerated() {
            let reply = try fixture.call("EchoVariant", [.variant(value)])
            #expect(reply == [.variant(value)], "case \(index): \(value.signature)")
        }
        // Negative zero keeps its sign (== alone would not tell).
        let zero = try fixture.call("EchoVariant", [.variant(.double(-0.0))])
        guard case .variant(.double(let number))? = zero.first else {
            Issue.record("no double came back: \(zero)")
            return
        }
        #expect(number.sign == .minus)
        #expect(fixture.client.isConnected)
    }

    @Test func allBasicTypesAtTheirExtremesSurviveAsTopLevelArguments() throws {
        let fixture = try EchoFixture()
        let low: [BusValue] = [
            .byte(0), .boolean(false), .int16(.min), .uint16(0), .int32(.min), .uint32(0), .int64(.min),
            .uint64(0),
            .double(-.infinity), .string(""), .objectPath("/"), .signature(""),
        ]
        let high: [BusValue] = [
            .byte(.max), .boolean(true), .int16(.max), .uint16(.max), .int32(.max), .uint32(.max),
            .int64(.max),
            .uint64(.max), .double(.nan), .string("✓ 🇫🇷"), .objectPath("/a/b"), .signature("a{sv}(ii)"),
        ]
        #expect(try fixture.call("EchoAll", low) == low)
        #expect(try fixture.call("EchoAll", high) == high)
    }

    @Test func bigStringsStructArraysAndDictionariesSurvive() throws {
        let fixture = try EchoFixture()
        let mebibyte = String(repeating: "ab✓", count: (1 << 20) / 5) + String(repeating: "z", count: 1 << 18)
        #expect(mebibyte.utf8.count > 1 << 20)
        // Compared as Bools: a failure should not print megabytes.
        let plain = try fixture.call("EchoString", [.string(mebibyte)]) == [.string(mebibyte)]
        #expect(plain, "the 1 MiB string came back different")
        let wrapped =
            try fixture.call("EchoVariant", [.variant(.string(mebibyte))]) == [.variant(.string(mebibyte))]
        #expect(wrapped, "the 1 MiB string in a variant came back different")

        let rows = BusValue.array(
            elementSignature: "(ts)",
            (0..<2000).map { .structure([.uint64(UInt64($0) * 7919), .string("row \($0)")]) })
        let sameRows = try fixture.call("EchoStructs", [rows]) == [rows]
        #expect(sameRows, "2000 (ts) rows came back different")
        let noRows = BusValue.array(elementSignature: "(ts)", [])
        #expect(try fixture.call("EchoStructs", [noRows]) == [noRows])

        let options = BusValue.dictionary(
            keySignature: "s", valueSignature: "v",
            [
                (.string("nested"), .variant(.variant(.variant(.string("three deep"))))),
                (.string("list"), .variant(.array(elementSignature: "(ts)", []))),
                (.string("map"), .variant(.dictionary(keySignature: "s", valueSignature: "v", []))),
                (.string("nan"), .variant(.double(.nan))),
            ])
        #expect(try fixture.call("EchoDict", [options]) == [options])
    }

    @Test func aCallWithoutInterfaceIsMatchedByMemberName() throws {
        let fixture = try EchoFixture()
        #expect(
            try fixture.call("EchoString", [.string("no interface")], interface: nil) == [
                .string("no interface")
            ])
        #expect(try fixture.call("Hello", interface: nil) == [.string("hello from Other1")])
    }
}
