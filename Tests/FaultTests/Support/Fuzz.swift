// SPDX-License-Identifier: MIT
import DBus
import Foundation
import FoundationXML
import TestSupport

/// One method the daemon's object serves, as its introspection declares it.
struct FuzzMethod {
    /// The interface.
    let interface: String
    /// The method name.
    let member: String
    /// The in-arguments: name and signature.
    let inputs: [(name: String, type: String)]
    /// The signature of the reply.
    let outSignature: String

    /// Every method of every interface in an introspection document, read by FoundationXML's
    /// parser.
    static func parse(_ xml: String) -> [FuzzMethod] {
        let reader = FuzzMethodReader()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = reader
        _ = parser.parse()
        return reader.methods
    }
}

/// Collects the methods of an introspection document as the parser reports its elements.
private final class FuzzMethodReader: NSObject, XMLParserDelegate {
    var methods: [FuzzMethod] = []
    private var interface = ""
    private var member: String?
    private var inputs: [(name: String, type: String)] = []
    private var out = ""

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "interface":
            interface = attributes["name"] ?? ""
        case "method":
            member = attributes["name"]
            inputs = []
            out = ""
        case "arg" where member != nil:
            let type = attributes["type"] ?? ""
            if attributes["direction"] == "out" {
                out += type
            } else {
                inputs.append((attributes["name"] ?? "", type))
            }
        default:
            return
        }
    }

    func parser(
        _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
    ) {
        guard element == "method", let name = member else { return }
        methods.append(FuzzMethod(interface: interface, member: name, inputs: inputs, outSignature: out))
        member = nil
    }
}

/// Makes hostile arguments: boundary values, values of the wrong type, texts of every
/// shape, and now and then very large ones.
struct FuzzValues {
    /// The tables the fuzzer mostly aims at, so that calls get past the name check.
    static let tables = ["f0", "f1", "f2", "f3"]
    /// One byte over the default cell limit.
    static let overCell = String(repeating: "o", count: (16 << 20) + 1)

    /// Row ids seen in replies, for `Locate`.
    var ids: [UInt64] = []

    /// A value for the in-argument `name` of signature `type`.
    mutating func value(_ name: String, _ type: String, _ random: inout SeededRandom) -> BusValue {
        switch type {
        case "s": return .string(text(for: name, &random))
        case "i": return .int32(int32(&random))
        case "u":
            return .uint32(
                random.pick([
                    0, 1, 2, 10, UInt32.max, UInt32.max - 1, UInt32.random(in: 0...100, using: &random),
                    random.next32(),
                ]))
        case "t":
            if !ids.isEmpty && random.chance(0.6) { return .uint64(random.pick(ids)) }
            return .uint64(
                random.pick([0, 1, UInt64.max, UInt64(Int64.max), UInt64(Int64.max) + 1, random.next()]))
        case "b": return .boolean(random.chance(0.5))
        case "as":
            let count = random.chance(0.002) ? 5000 : Int.random(in: 0...6, using: &random)
            return .array(elementSignature: "s", (0..<count).map { _ in .string(text(for: name, &random)) })
        case "ai":
            let count = random.chance(0.002) ? 20_000 : Int.random(in: 0...6, using: &random)
            return .array(elementSignature: "i", (0..<count).map { _ in .int32(int32(&random)) })
        case "v": return .variant(anyValue(&random, depth: 1))
        case "a{ss}":
            // A template's input values: labels of every shape, now and then very many.
            let count = random.chance(0.002) ? 5000 : Int.random(in: 0...4, using: &random)
            return .dictionary(
                keySignature: "s", valueSignature: "s",
                (0..<count).map { _ in
                    (.string(text(for: "label", &random)), .string(text(for: "text", &random)))
                })
        default: return anyValue(&random, depth: 0)
        }
    }

    /// A boundary or random `Int32`, mostly small so that it sometimes names a real index.
    func int32(_ random: inout SeededRandom) -> Int32 {
        random.pick([
            Int32.min, Int32.max, Int32.min + 1, Int32.max - 1, -1, -2, 0, 0, 1, 1, 2, 3,
            Int32.random(in: -10...10, using: &random), Int32(truncatingIfNeeded: random.next()),
        ])
    }

    /// A text chosen for what the argument means, or a hostile one.
    func text(for name: String, _ random: inout SeededRandom) -> String {
        if random.chance(0.25) { return hostileText(&random) }
        switch name {
        case "table", "new_name", "names":
            return random.chance(0.8)
                ? random.pick(Self.tables) : random.pick(["new", "x/y", "", "nosuch", "t\u{7}"])
        case "format": return random.pick(["json", "tsv", "lines", "JSON", "", "xml"])
        case "op":
            return random.pick([
                "equals", "contains", "prefix", "suffix", "matches", ">", ">=", "<", "<=", "==", "!=", "=",
                "like", "",
            ])
        case "operand":
            return random.pick([
                "a", "", "2", "-3.5", "1e9", "nan", "(", "a**", "(a|aa)*b", "(a*)*$", "[[:alpha:]]+", "^$",
                "\\",
                "[z-a]", "a{1000}", "(((((x)))))", String(repeating: "(a*)", count: 50),
            ])
        case "action", "actions":
            return random.pick(["copy", "cut", "paste", "delete", "move", "edit", "insert", "Copy", ""])
        case "interface_name":
            return random.pick([
                "io.github.cliptab.Cliptab1", "org.freedesktop.DBus.Properties", "", "no.such",
            ])
        case "property_name": return random.pick(["Version", "ApiVersion", "Tables", "version", ""])
        case "data": return document(&random)
        case "text" where random.chance(0.2), "texts" where random.chance(0.2):
            // Rows for a templates table (the fuzzer turns templates on now and then).
            return random.pick([
                "{date +1d:%F}", "{input:Name=x} {cursor}", "{snippet:f1/x}", "{{", "{", "}", "{date:%Q}",
                "{clipboard}{uuid}", String(repeating: "{uuid}", count: 1001), "{date +999999y -999999M}",
            ])
        default: return random.text()
        }
    }

    /// Texts of the shapes that break things: empty, controls, slashes, section markers,
    /// escapes, unusual scalars, long and very long.
    func hostileText(_ random: inout SeededRandom) -> String {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return ""
        case 1: return "\u{1}\u{7f}\u{9f}\t\r\n"
        case 2: return "/../\\\\\\t\\n"
        case 3: return "## header\n##\nrow"
        case 4: return "\u{feff}\u{202e}\u{10ffff}\u{fffd}e\u{301}"
        case 5: return String(repeating: "ü", count: Int.random(in: 1...40_000, using: &random))
        case 6:
            return String(repeating: "x", count: 255)
                + String(repeating: "y", count: Int.random(in: 0...2, using: &random))
        case 7: return random.chance(0.01) ? Self.overCell : String(repeating: "long ", count: 2000)
        case 8: return "{\"name\": \"x\", \"sections\": [{\"rows\": [{\"text\": \"\\ud800\"}]}]}"
        case 9: return String(repeating: "[", count: 10_000)
        case 10: return "-0.0"
        default: return random.text()
        }
    }

    /// An exchange document: valid now and then, broken or odd otherwise.
    func document(_ random: inout SeededRandom) -> String {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return "one\ntwo\n## Header\nthree"
        case 1: return "section\theader\tfooter\trow\ttext\n0\th\tf\t0\tcell\\twith tab\n"
        case 2:
            return
                "{\"name\": \"t\", \"sections\": [{\"header\": \"h\", \"footer\": \"\", \"rows\": [{\"id\": 1, \"text\": \"r\"}]}]}"
        case 3: return "{\"sections\": [{\"rows\": [{\"text\": 5}]}]}"
        case 4: return "section\theader\n1\t2\t3\t4\t5\t6\n\\q"
        case 5: return String(repeating: "{\"a\":", count: 5000)
        case 6:
            return (0..<Int.random(in: 1...2000, using: &random)).map { "row \($0)" }.joined(separator: "\n")
        default: return hostileText(&random)
        }
    }

    /// A value of a random type (for calls with the wrong signature), nested at most two
    /// levels deeper than `depth`.
    func anyValue(_ random: inout SeededRandom, depth: Int) -> BusValue {
        let kinds = depth >= 3 ? 11 : 15
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return .byte(UInt8.random(in: 0...255, using: &random))
        case 1: return .boolean(random.chance(0.5))
        case 2: return .int16(Int16.random(in: .min ... .max, using: &random))
        case 3: return .uint16(UInt16.random(in: 0 ... .max, using: &random))
        case 4: return .int32(int32(&random))
        case 5: return .uint32(random.next32())
        case 6: return .int64(Int64.random(in: .min ... .max, using: &random))
        case 7: return .uint64(random.next())
        case 8: return .double(random.pick([0, -0.0, .nan, .infinity, 1e308, .leastNonzeroMagnitude]))
        case 9: return .string(hostileText(&random))
        case 10:
            return random.chance(0.5) ? .objectPath("/a/b_c/\(random.next32())") : .signature("a{sv}(ii)")
        case 11:
            return .array(
                elementSignature: "y", (0..<Int.random(in: 0...64, using: &random)).map { _ in .byte(0xFF) })
        case 12:
            return .structure(
                (0..<Int.random(in: 1...3, using: &random)).map { _ in anyValue(&random, depth: depth + 1) })
        case 13: return .variant(anyValue(&random, depth: depth + 1))
        default:
            return .dictionary(
                keySignature: "s", valueSignature: "v",
                [(.string("k"), .variant(anyValue(&random, depth: depth + 1)))])
        }
    }
}

extension SeededRandom {
    /// The next 32 random bits.
    mutating func next32() -> UInt32 { UInt32(truncatingIfNeeded: next()) }
}
