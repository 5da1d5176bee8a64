// SPDX-License-Identifier: MIT
import DBus

/// Where a daemon's sequence is, as `GetSequence` and `SequenceChanged` carry it.
public struct SequencePosition: Equatable, Sendable {
    /// The table its rows came from.
    public var table: String
    /// The section's index when it began.
    public var section: Int32
    /// The section's header then ("" for none).
    public var header: String
    /// The 1-based place of the row on the clipboard now.
    public var position: UInt32
    /// How many rows it has.
    public var count: UInt32

    /// Makes a position.
    public init(table: String, section: Int32, header: String, position: UInt32, count: UInt32) {
        self.table = table
        self.section = section
        self.header = header
        self.position = position
        self.count = count
    }

    /// `2 of 5: snippets @Address` (the section's index where it has no header).
    public var line: String {
        "\(position) of \(count): \(table) " + (header.isEmpty ? "\(section)" : "@\(header)")
    }
}

/// The calls of sequences (API version 4): rows offered one paste at a time.
extension CliptabClient {
    /// Starts a sequence of the rows from (section, row) to the end of the section, or
    /// `count` of them (0: to the end); answers once the first is on the clipboard.
    public func startSequence(_ table: String, section: Int32, row: Int32, count: UInt64)
        throws(ClientFailure) -> SequencePosition
    {
        let options: [(BusValue, BusValue)] = count == 0 ? [] : [(.string("count"), .variant(.uint64(count)))]
        let reply = try call(
            "StartSequence",
            [.string(table), .int32(section), .int32(row), Self.options(options)])
        if let position = try sequence() { return position }
        // Ended already (another program copied at once): where it began.
        return SequencePosition(
            table: table, section: section, header: "", position: try reply.uint32(0),
            count: try reply.uint32(1))
    }

    /// Ends the running sequence and puts the clipboard back; false when none ran.
    public func stopSequence() throws(ClientFailure) -> Bool {
        try call("StopSequence", [Self.options([])]).boolean(0)
    }

    /// Where the running sequence is, or nil when none runs.
    public func sequence() throws(ClientFailure) -> SequencePosition? {
        let reply = try call("GetSequence", [Self.options([])])
        guard try reply.boolean(0) else { return nil }
        return SequencePosition(
            table: try reply.string(1), section: try reply.int32(2), header: try reply.string(3),
            position: try reply.uint32(4), count: try reply.uint32(5))
    }

    /// An `a{sv}` options argument.
    private static func options(_ entries: [(BusValue, BusValue)]) -> BusValue {
        .dictionary(keySignature: "s", valueSignature: "v", entries)
    }
}
