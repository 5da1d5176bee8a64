// SPDX-License-Identifier: MIT

/// The named rows of one table, by name and by row id, each with the row's place in the
/// store (section id and order key), so that finding a row by name costs a dictionary
/// lookup, a walk over the sections and a binary search, never a scan of the rows.
public struct RowNameIndex: Equatable, Sendable {
    /// Where a named row is: its id, its section's id and its order key.
    public struct Place: Equatable, Sendable {
        /// The row's id.
        public var rowID: UInt64
        /// The id of the section holding the row.
        public var sectionID: UInt64
        /// The row's order key within that section.
        public var key: Int64

        /// Makes a place.
        public init(rowID: UInt64, sectionID: UInt64, key: Int64) {
            self.rowID = rowID
            self.sectionID = sectionID
            self.key = key
        }
    }

    private var places: [String: Place] = [:]
    private var namesByRow: [UInt64: String] = [:]

    /// Makes an empty index.
    public init() {}

    /// The number of named rows.
    public var count: Int { places.count }
    /// True when no row has a name.
    public var isEmpty: Bool { places.isEmpty }
    /// Every (name, place), in no particular order.
    public var entries: [(name: String, place: Place)] { places.map { ($0.key, $0.value) } }

    /// Calls `body` with every (name, place), in no particular order, without copying them
    /// into an array first (a table may have a million names).
    public func forEachEntry(_ body: (String, Place) throws -> Void) rethrows {
        for (name, place) in places { try body(name, place) }
    }

    /// The place of the row named `name`, if any.
    public func place(of name: String) -> Place? { places[name] }

    /// The name of the row with `rowID`, if it has one.
    public func name(of rowID: UInt64) -> String? { namesByRow[rowID] }

    /// Gives the row at `place` the name `name` (replacing its old one); an empty `name`
    /// removes the row's name.
    public mutating func setName(_ name: String, at place: Place) {
        removeName(of: place.rowID)
        guard !name.isEmpty else { return }
        places[name] = place
        namesByRow[place.rowID] = name
    }

    /// Removes the name of the row with `rowID`, if it has one.
    public mutating func removeName(of rowID: UInt64) {
        if let old = namesByRow.removeValue(forKey: rowID) { places[old] = nil }
    }

    /// Records that the row with `rowID` moved to `sectionID` with `key` (a no-op for an
    /// unnamed row).
    public mutating func moved(_ rowID: UInt64, to sectionID: UInt64, key: Int64) {
        guard let name = namesByRow[rowID] else { return }
        places[name] = Place(rowID: rowID, sectionID: sectionID, key: key)
    }

    /// Removes the names of every row in the sections `sectionIDs`.
    public mutating func removeSections(_ sectionIDs: Set<UInt64>) {
        for (name, place) in places where sectionIDs.contains(place.sectionID) {
            places[name] = nil
            namesByRow[place.rowID] = nil
        }
    }
}
