// SPDX-License-Identifier: MIT

/// One complete D-Bus type, parsed from a signature: what the codec and the dispatcher check
/// values against.
indirect enum BusType: Equatable, Sendable {
    /// A basic type, by its type code (`y b n q i u x t d s o g h`).
    case basic(UInt8)
    /// `a` followed by an element type that is not a dictionary entry.
    case array(BusType)
    /// `a{kv}`: an array of dictionary entries with a basic key type.
    case dictionary(key: UInt8, value: BusType)
    /// `(…)`: one or more fields.
    case structure([BusType])
    /// `v`
    case variant

    /// The basic type codes, in the order of the specification.
    static let basicCodes: [UInt8] = Array("ybnqiuxtdsogh".utf8)
    /// The basic types of fixed size, which libdbus can copy as whole arrays.
    static let fixedCodes: [UInt8] = Array("ybnqiuxtdh".utf8)

    /// The signature of this type.
    var signature: String {
        switch self {
        case .basic(let code): return String(UnicodeScalar(code))
        case .array(let element): return "a" + element.signature
        case .dictionary(let key, let value): return "a{" + String(UnicodeScalar(key)) + value.signature + "}"
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        case .variant: return "v"
        }
    }

    /// The type code libdbus uses for this type's first byte (`a`, `r` for structs, `v`, …).
    var typeCode: Int32 {
        switch self {
        case .basic(let code): return Int32(code)
        case .array, .dictionary: return Int32(UInt8(ascii: "a"))
        case .structure: return Int32(UInt8(ascii: "r"))
        case .variant: return Int32(UInt8(ascii: "v"))
        }
    }

    /// True when the type holds a Unix file descriptor (`h`) anywhere, which this module cannot
    /// carry.
    var containsUnixFD: Bool {
        switch self {
        case .basic(let code): return code == UInt8(ascii: "h")
        case .array(let element): return element.containsUnixFD
        case .dictionary(let key, let value): return key == UInt8(ascii: "h") || value.containsUnixFD
        case .structure(let fields): return fields.contains(where: \.containsUnixFD)
        case .variant: return false
        }
    }

    /// True for basic types of fixed size.
    var isFixed: Bool {
        if case .basic(let code) = self { return BusType.fixedCodes.contains(code) }
        return false
    }

    /// The wire alignment of a value of this type, in bytes.
    var alignment: Int {
        switch self {
        case .basic(let code):
            switch code {
            case UInt8(ascii: "y"), UInt8(ascii: "g"): return 1
            case UInt8(ascii: "n"), UInt8(ascii: "q"): return 2
            case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): return 8
            default: return 4
            }
        case .array, .dictionary: return 4
        case .structure: return 8
        case .variant: return 1
        }
    }

    /// The alignment of one element of an array of this type (dictionary entries align to 8).
    var elementAlignment: Int {
        switch self {
        case .array(let element): return element.alignment
        case .dictionary: return 8
        default: return alignment
        }
    }
}

/// Parses and validates signatures by the rules libdbus applies (so that whatever passes here
/// cannot make libdbus abort or the bus reject a message).
enum BusSignature {
    /// The longest signature (bytes).
    static let maximumLength = 255
    /// The deepest nesting of structs, of dictionary entries, and of consecutive arrays.
    static let maximumNesting = 32

    /// The complete types of `signature`, in order; throws `InvalidArgs` saying what is wrong.
    static func parse(_ signature: String) throws -> [BusType] {
        let bytes = Array(signature.utf8)
        guard bytes.count <= maximumLength else {
            throw invalid(signature, "it is longer than \(maximumLength) bytes")
        }
        var parser = Parser(bytes: bytes, signature: signature)
        var types: [BusType] = []
        while parser.index < bytes.count {
            types.append(try parser.completeType(structDepth: 0, dictDepth: 0, arrayRun: 0))
        }
        return types
    }

    /// The single complete type of `signature`; throws unless it holds exactly one.
    static func parseSingle(_ signature: String, what: String = "signature") throws -> BusType {
        let types = try parse(signature)
        guard types.count == 1 else {
            throw BusError.invalidArgs(
                "invalid \(what) \(BusSyntax.quoted(signature)): it must be exactly one complete type, "
                    + "not \(types.count)")
        }
        return types[0]
    }

    /// The `InvalidArgs` error for an invalid signature.
    fileprivate static func invalid(_ signature: String, _ reason: String) -> BusError {
        BusError.invalidArgs("invalid signature \(BusSyntax.quoted(signature)): \(reason)")
    }

    /// A recursive-descent reader over the bytes of one signature.
    private struct Parser {
        let bytes: [UInt8]
        let signature: String
        var index = 0

        init(bytes: [UInt8], signature: String) {
            self.bytes = bytes
            self.signature = signature
        }

        /// Reads one complete type starting at `index`.
        mutating func completeType(structDepth: Int, dictDepth: Int, arrayRun: Int) throws -> BusType {
            guard index < bytes.count else {
                throw BusSignature.invalid(signature, "it ends in the middle of a type")
            }
            let code = bytes[index]
            index += 1
            switch code {
            case _ where BusType.basicCodes.contains(code):
                return .basic(code)
            case UInt8(ascii: "v"):
                return .variant
            case UInt8(ascii: "a"):
                guard arrayRun + 1 <= BusSignature.maximumNesting else {
                    throw BusSignature.invalid(signature, "arrays are nested more than 32 deep")
                }
                if index < bytes.count && bytes[index] == UInt8(ascii: "{") {
                    index += 1
                    return try dictionaryEntry(structDepth: structDepth, dictDepth: dictDepth + 1)
                }
                guard index < bytes.count, bytes[index] != UInt8(ascii: ")"),
                    bytes[index] != UInt8(ascii: "}")
                else {
                    throw BusSignature.invalid(signature, "an array (\"a\") has no element type")
                }
                return .array(
                    try completeType(structDepth: structDepth, dictDepth: dictDepth, arrayRun: arrayRun + 1))
            case UInt8(ascii: "("):
                guard structDepth + 1 <= BusSignature.maximumNesting else {
                    throw BusSignature.invalid(signature, "structs are nested more than 32 deep")
                }
                var fields: [BusType] = []
                while true {
                    guard index < bytes.count else {
                        throw BusSignature.invalid(signature, "a struct is not closed with \")\"")
                    }
                    if bytes[index] == UInt8(ascii: ")") {
                        index += 1
                        break
                    }
                    fields.append(
                        try completeType(structDepth: structDepth + 1, dictDepth: dictDepth, arrayRun: 0))
                }
                guard !fields.isEmpty else {
                    throw BusSignature.invalid(signature, "a struct \"()\" has no fields")
                }
                return .structure(fields)
            case UInt8(ascii: ")"):
                throw BusSignature.invalid(signature, "\")\" closes a struct that was not opened")
            case UInt8(ascii: "{"):
                throw BusSignature.invalid(signature, "a dictionary entry \"{…}\" may only follow \"a\"")
            case UInt8(ascii: "}"):
                throw BusSignature.invalid(signature, "\"}\" closes a dictionary entry that was not opened")
            default:
                throw BusSignature.invalid(
                    signature,
                    "\(BusSyntax.quoted(String(decoding: [code], as: UTF8.self))) is not a type code")
            }
        }

        /// Reads `kv}` after `a{`.
        private mutating func dictionaryEntry(structDepth: Int, dictDepth: Int) throws -> BusType {
            guard dictDepth <= BusSignature.maximumNesting else {
                throw BusSignature.invalid(signature, "dictionary entries are nested more than 32 deep")
            }
            guard index < bytes.count, bytes[index] != UInt8(ascii: "}") else {
                throw BusSignature.invalid(signature, "a dictionary entry has no key and value")
            }
            let key = bytes[index]
            guard BusType.basicCodes.contains(key) else {
                throw BusSignature.invalid(signature, "a dictionary key must be a basic type")
            }
            index += 1
            guard index < bytes.count, bytes[index] != UInt8(ascii: "}") else {
                throw BusSignature.invalid(signature, "a dictionary entry has a key but no value")
            }
            let value = try completeType(structDepth: structDepth, dictDepth: dictDepth, arrayRun: 0)
            guard index < bytes.count else {
                throw BusSignature.invalid(signature, "a dictionary entry is not closed with \"}\"")
            }
            guard bytes[index] == UInt8(ascii: "}") else {
                throw BusSignature.invalid(
                    signature, "a dictionary entry must hold exactly a key and a value")
            }
            index += 1
            return .dictionary(key: key, value: value)
        }
    }
}
