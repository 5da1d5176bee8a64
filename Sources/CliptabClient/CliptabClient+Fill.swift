// SPDX-License-Identifier: MIT
import DBus

/// What a fill of the focused window came to (`FillToFocus`).
public struct FillOutcome: Equatable, Sendable {
    /// The rows the window fetched.
    public let filled: Int
    /// Why the fill stopped before its end (`row 3 of 5: …`); empty when every row was
    /// fetched.
    public let reason: String
}

extension CliptabClient {
    /// Types rows from (section, row) of `table` into the focused window with the paste
    /// key, `then` (`tab`, `enter`, `none`) between two of them: `count` rows, or with nil
    /// those to the end of the section (`FillToFocus`, API version 4).
    public func fill(_ table: String, section: Int32, row: Int32, count: UInt64?, then: String?)
        throws(ClientFailure) -> FillOutcome
    {
        var options: [(BusValue, BusValue)] = []
        if let count { options.append((.string("count"), .variant(.uint64(count)))) }
        if let then { options.append((.string("then"), .variant(.string(then)))) }
        let reply = try call(
            "FillToFocus",
            [
                .string(table), .int32(section), .int32(row),
                .dictionary(keySignature: "s", valueSignature: "v", options),
            ])
        return FillOutcome(filled: Int(try reply.uint32(0)), reason: try reply.string(1))
    }
}
