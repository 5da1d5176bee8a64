// SPDX-License-Identifier: MIT

/// A strftime-style format, checked once and written without the C library (so the same
/// clock and zone always give the same text, in every locale: the names are English).
///
/// Conversions: `%Y` `%y` `%C` `%m` `%d` `%e` `%j` `%H` `%I` `%k` `%l` `%M` `%S` `%p` `%a` `%A`
/// `%b` `%h` `%B` `%u` `%w` `%s` `%z` `%Z` `%F` (`%Y-%m-%d`) `%T` (`%H:%M:%S`) `%R` (`%H:%M`)
/// `%D` (`%m/%d/%y`) `%n` `%t` `%%`.
public struct TimeFormat: Equatable, Sendable {
    /// One piece of a format.
    enum Piece: Equatable, Sendable {
        /// Text as it is.
        case text(String)
        /// A conversion, by its letter.
        case field(Character)
    }

    /// The conversion letters understood.
    static let letters: Set<Character> = [
        "Y", "y", "C", "m", "d", "e", "j", "H", "I", "k", "l", "M", "S", "p", "a", "A", "b", "h", "B", "u",
        "w", "s", "z", "Z", "F", "T", "R", "D", "n", "t", "%",
    ]
    private static let weekdays = [
        "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
    ]
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    let pieces: [Piece]

    /// The format as strftime writes it (`%Y-%m-%d`).
    public var text: String {
        pieces.map { piece in
            switch piece {
            case .text(let text): return text
            case .field(let letter): return "%\(letter)"
            }
        }.joined()
    }

    /// Reads `format`; throws the UTF-8 offset within it and what is wrong.
    ///
    /// Read byte by byte: every conversion is ASCII, and a copy parses the row each time.
    public init(parsing format: String) throws(TemplateSyntaxError) {
        var pieces: [Piece] = []
        var text: [UInt8] = []
        let bytes = Array(format.utf8)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "%") else {
                text.append(bytes[i])
                i += 1
                continue
            }
            guard i + 1 < bytes.count else {
                throw TemplateSyntaxError(
                    offset: i, "the format ends in a lone \"%\" (write %% for a percent sign)")
            }
            let letter = bytes[i + 1]
            guard letter < 0x80, Self.letters.contains(Character(Unicode.Scalar(letter))) else {
                let shown = letter < 0x80 ? String(Character(Unicode.Scalar(letter))) : "…"
                throw TemplateSyntaxError(
                    offset: i,
                    "\"%\(shown)\" is not a known conversion (known: %Y %m %d %H %M %S %F %T and others; %% for %)"
                )
            }
            if !text.isEmpty {
                pieces.append(.text(String(decoding: text, as: UTF8.self)))
                text.removeAll(keepingCapacity: true)
            }
            pieces.append(.field(Character(Unicode.Scalar(letter))))
            i += 2
        }
        if !text.isEmpty { pieces.append(.text(String(decoding: text, as: UTF8.self))) }
        self.pieces = pieces
    }

    /// The format written for `time`.
    public func render(_ time: CivilTime) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let text): out += text
            case .field(let letter): Self.append(letter, of: time, to: &out)
            }
        }
        return out
    }

    private static func append(_ letter: Character, of t: CivilTime, to out: inout String) {
        switch letter {
        case "Y": out += t.year < 0 ? "-" + pad(-t.year, 4) : pad(t.year, 4)
        case "y": out += pad(((t.year % 100) + 100) % 100, 2)
        case "C": out += pad(floorDivide(t.year, 100), 2)
        case "m": out += pad(t.month, 2)
        case "d": out += pad(t.day, 2)
        case "e": out += pad(t.day, 2, with: " ")
        case "j": out += pad(t.dayOfYear, 3)
        case "H": out += pad(t.hour, 2)
        case "k": out += pad(t.hour, 2, with: " ")
        case "I": out += pad(twelveHour(t.hour), 2)
        case "l": out += pad(twelveHour(t.hour), 2, with: " ")
        case "M": out += pad(t.minute, 2)
        case "S": out += pad(t.second, 2)
        case "p": out += t.hour < 12 ? "AM" : "PM"
        case "a": out += String(weekdays[Int(t.weekday)].prefix(3))
        case "A": out += weekdays[Int(t.weekday)]
        case "b", "h": out += String(months[Int(t.month - 1)].prefix(3))
        case "B": out += months[Int(t.month - 1)]
        case "u": out += String(t.weekday == 0 ? 7 : t.weekday)
        case "w": out += String(t.weekday)
        case "s": out += String(t.epochSeconds)
        case "z":
            let magnitude = abs(t.utcOffset)
            out += (t.utcOffset < 0 ? "-" : "+") + pad(magnitude / 3600, 2) + pad(magnitude / 60 % 60, 2)
        case "Z": out += t.zoneAbbreviation
        case "F": out += pad(t.year, 4) + "-" + pad(t.month, 2) + "-" + pad(t.day, 2)
        case "T": out += pad(t.hour, 2) + ":" + pad(t.minute, 2) + ":" + pad(t.second, 2)
        case "R": out += pad(t.hour, 2) + ":" + pad(t.minute, 2)
        case "D": out += pad(t.month, 2) + "/" + pad(t.day, 2) + "/" + pad(((t.year % 100) + 100) % 100, 2)
        case "n": out += "\n"
        case "t": out += "\t"
        default: out += "%"
        }
    }

    private static func twelveHour(_ hour: Int64) -> Int64 { hour % 12 == 0 ? 12 : hour % 12 }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    private static func pad(_ value: Int64, _ width: Int, with fill: Character = "0") -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: fill, count: width - digits.count) + digits
    }
}
