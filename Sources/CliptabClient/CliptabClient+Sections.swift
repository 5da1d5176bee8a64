// SPDX-License-Identifier: MIT
import DBus

/// The contract's calls about sections (`docs/dbus-api.md`), one typed method each; where a
/// method answers for more than one call, it falls back to an earlier API version's here.
extension CliptabClient {
    /// `GetSections`.
    public func sections(_ table: String) throws(ClientFailure) -> [SectionSummary] {
        try Self.sections(call("GetSections", [.string(table)]))
    }

    /// The sections of a `GetSections` reply.
    static func sections(_ reply: DaemonReply) throws(ClientFailure) -> [SectionSummary] {
        var sections: [SectionSummary] = []
        for fields in try reply.structures(0, "a(ssu)") {
            let section = DaemonReply(member: reply.member, values: fields)
            sections.append(
                SectionSummary(
                    header: try section.string(0), footer: try section.string(1),
                    rowCount: Int(try section.uint32(2))))
        }
        return sections
    }

    /// `InsertSection` at `index` (-1: at the end): the index it took.
    public func insertSection(_ table: String, at index: Int32, header: String, footer: String)
        throws(ClientFailure) -> Int32
    {
        try call("InsertSection", [.string(table), .int32(index), .string(header), .string(footer)]).int32(0)
    }

    /// `DeleteSections`.
    public func deleteSections(_ table: String, _ sections: [Int32]) throws(ClientFailure) {
        try call(
            "DeleteSections", [.string(table), .array(elementSignature: "i", sections.map { .int32($0) })])
    }

    /// `MoveSection`.
    public func moveSection(_ table: String, from source: Int32, to destination: Int32) throws(ClientFailure)
    {
        try call("MoveSection", [.string(table), .int32(source), .int32(destination)])
    }

    /// `SetHeader`.
    public func setHeader(_ table: String, section: Int32, _ text: String) throws(ClientFailure) {
        try call("SetHeader", [.string(table), .int32(section), .string(text)])
    }

    /// `SetFooter`.
    public func setFooter(_ table: String, section: Int32, _ text: String) throws(ClientFailure) {
        try call("SetFooter", [.string(table), .int32(section), .string(text)])
    }

    /// `FindSection`: the index of the section with `header`.
    public func findSection(_ table: String, header: String) throws(ClientFailure) -> Int32 {
        try call("FindSection", [.string(table), .string(header)]).int32(0)
    }

    /// `CopySection`: its rows joined by `separator`, copied.
    public func copySection(_ table: String, section: Int32, separator: String) throws(ClientFailure)
        -> String
    {
        try call("CopySection", [.string(table), .int32(section), .string(separator)]).string(0)
    }
}
