// SPDX-License-Identifier: MIT

/// A time zone's offsets from UTC over time, read from a TZif file's bytes (RFC 8536) by
/// the caller: the core does no I/O.
///
/// The 64-bit data of a version 2 or later file is used (the 32-bit block of version 1
/// alone otherwise). After the last transition the last type holds: the files Debian
/// installs list transitions up to 2037; the POSIX rule in the footer is not read.
public struct ZoneRules: Equatable, Sendable {
    /// One local time type: offset, daylight saving or not, abbreviation.
    public struct LocalType: Equatable, Sendable {
        /// Seconds east of UTC.
        public var utcOffset: Int64
        /// Whether it is daylight saving time.
        public var isDaylightSaving: Bool
        /// Such as `CEST`.
        public var abbreviation: String

        /// Makes a type.
        public init(utcOffset: Int64, isDaylightSaving: Bool, abbreviation: String) {
            self.utcOffset = utcOffset
            self.isDaylightSaving = isDaylightSaving
            self.abbreviation = abbreviation
        }
    }

    /// The zone's name, for messages (`Europe/Berlin`).
    public var name: String
    /// The UTC seconds at which the type changes, ascending.
    var transitions: [Int64]
    /// The type from each transition on.
    var typeIndexes: [Int]
    /// The types.
    var types: [LocalType]
    /// The type before the first transition.
    var initialType: Int

    /// UTC.
    public static let utc = fixed(name: "UTC", utcOffset: 0)

    /// A zone that is always `utcOffset` seconds east of UTC.
    public static func fixed(name: String, utcOffset: Int64) -> ZoneRules {
        ZoneRules(
            name: name, transitions: [], typeIndexes: [],
            types: [LocalType(utcOffset: utcOffset, isDaylightSaving: false, abbreviation: name)],
            initialType: 0)
    }

    private init(name: String, transitions: [Int64], typeIndexes: [Int], types: [LocalType], initialType: Int)
    {
        self.name = name
        self.transitions = transitions
        self.typeIndexes = typeIndexes
        self.types = types
        self.initialType = initialType
    }

    /// Why TZif bytes could not be read.
    public struct FormatError: Error, Equatable, Sendable, CustomStringConvertible {
        /// What was wrong.
        public let description: String
    }

    /// Reads a TZif file's bytes; `name` is kept for messages.
    public init(name: String, tzif bytes: [UInt8]) throws(FormatError) {
        func count(_ at: Int, _ index: Int) throws(FormatError) -> Int {
            let start = at + 20 + index * 4
            guard start + 4 <= bytes.count else { throw FormatError(description: "the header is cut short") }
            return Int(Self.bigEndian(bytes, start, 4))
        }
        guard bytes.count >= 44, bytes[0] == 0x54, bytes[1] == 0x5A, bytes[2] == 0x69, bytes[3] == 0x66 else {
            throw FormatError(description: "not a TZif file (no \"TZif\" at its start)")
        }
        var header = 0
        var timeSize = 4
        func blockLength(_ header: Int, _ timeSize: Int) throws(FormatError) -> Int {
            let (isUT, isStd, leap, time, type, chars) = (
                try count(header, 0), try count(header, 1), try count(header, 2), try count(header, 3),
                try count(header, 4), try count(header, 5)
            )
            return time * timeSize + time + type * 6 + chars + leap * (timeSize + 4) + isStd + isUT
        }
        if bytes[4] >= 0x32 {
            // Skip the 32-bit block to the second header and its 64-bit data.
            header = 44 + (try blockLength(0, 4))
            timeSize = 8
            guard header + 44 <= bytes.count else {
                throw FormatError(description: "the second header is missing")
            }
        }
        let timeCount = try count(header, 3)
        let typeCount = try count(header, 4)
        let charCount = try count(header, 5)
        guard typeCount > 0, header + 44 + (try blockLength(header, timeSize)) <= bytes.count else {
            throw FormatError(description: "the data block is cut short or has no local time types")
        }
        var at = header + 44
        var transitions: [Int64] = []
        for i in 0..<timeCount {
            let raw = Self.bigEndian(bytes, at + i * timeSize, timeSize)
            transitions.append(timeSize == 8 ? Int64(bitPattern: raw) : Int64(Int32(truncatingIfNeeded: raw)))
        }
        at += timeCount * timeSize
        var indexes: [Int] = []
        for i in 0..<timeCount {
            let index = Int(bytes[at + i])
            guard index < typeCount else { throw FormatError(description: "a transition names no type") }
            indexes.append(index)
        }
        at += timeCount
        let charsAt = at + typeCount * 6
        var types: [LocalType] = []
        for i in 0..<typeCount {
            let base = at + i * 6
            let offset = Int64(Int32(truncatingIfNeeded: Self.bigEndian(bytes, base, 4)))
            let abbreviationIndex = Int(bytes[base + 5])
            var end = charsAt + abbreviationIndex
            while end < charsAt + charCount, bytes[end] != 0 { end += 1 }
            let abbreviation =
                abbreviationIndex < charCount
                ? String(decoding: bytes[(charsAt + abbreviationIndex)..<end], as: UTF8.self) : ""
            types.append(
                LocalType(
                    utcOffset: offset, isDaylightSaving: bytes[base + 4] != 0, abbreviation: abbreviation))
        }
        self.init(
            name: name, transitions: transitions, typeIndexes: indexes, types: types,
            initialType: types.firstIndex { !$0.isDaylightSaving } ?? 0)
    }

    /// The local time type in force at UTC second `epochSeconds`.
    public func type(at epochSeconds: Int64) -> LocalType {
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= epochSeconds { low = middle + 1 } else { high = middle }
        }
        return types[low == 0 ? initialType : typeIndexes[low - 1]]
    }

    /// The wall clock of UTC second `epochSeconds`.
    public func civil(at epochSeconds: Int64) -> CivilTime {
        let type = type(at: epochSeconds)
        return CivilTime(
            epochSeconds: epochSeconds, utcOffset: type.utcOffset, abbreviation: type.abbreviation)
    }

    /// The UTC second that a wall clock (seconds as if it were UTC) names.
    ///
    /// In a gap (clocks moved forward) it is the moment the given wall time would have been
    /// before the change, shown after the gap; in an overlap, the earlier of the two.
    public func epochSeconds(ofWall wall: Int64) -> Int64 {
        let offsets = [type(at: wall - 86_400).utcOffset, type(at: wall + 86_400).utcOffset]
        let fitting = offsets.filter { type(at: wall - $0).utcOffset == $0 }
        // In an overlap both fit: the larger offset is the earlier moment.
        if let offset = fitting.max() { return wall - offset }
        return wall - offsets[0]
    }

    private static func bigEndian(_ bytes: [UInt8], _ start: Int, _ length: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in start..<(start + length) { value = value << 8 | UInt64(bytes[i]) }
        return value
    }
}
