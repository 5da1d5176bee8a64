// SPDX-License-Identifier: MIT
import CliptabCore
import DBus

extension CliptabInterface {
    /// The methods of table documents (API version 4): a document applied to a table, a row's
    /// text set at a revision.
    static var documentMethods: [CliptabMethod] {
        [
            .immediate(
                "ApplyTable",
                [arg("table", "s"), arg("document", "s"), arg("revision", "t"), arg("options", "a{sv}")],
                [arg("revision", "t"), arg("counts", "a{su}")]
            ) { service, a in
                let dryRun = try applyOptions(a.values[3])
                let result = try service.tables.apply(
                    a.string("table"), data: a.string("document"), revision: a.uint64("revision"),
                    dryRun: dryRun)
                return [
                    .uint64(result.revision),
                    .dictionary(
                        keySignature: "s", valueSignature: "u",
                        result.counts.named.map { (.string($0.name), .uint32(UInt32($0.count))) }),
                ]
            },
            .immediate(
                "EditCell",
                [
                    arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("text", "s"),
                    arg("options", "a{sv}"),
                ],
                [arg("revision", "t")]
            ) { service, a in
                let revision = try editOptions(a.values[4])
                return [
                    .uint64(
                        try service.tables.editCell(
                            a.string("table"), section: a.int32("section"), row: a.int32("row"),
                            text: a.string("text"), revision: revision))
                ]
            },
        ]
    }

    /// The `revision` option of `EditCell` (0 when absent); an unknown option, or one of
    /// another type, is `InvalidArgument`, as in `ApplyTable`.
    private static func editOptions(_ value: BusValue) throws -> UInt64 {
        guard case .dictionary(_, _, let entries) = value else { return 0 }
        var revision: UInt64 = 0
        for (key, value) in entries {
            guard case .string(let key) = key else { continue }
            switch (key, value) {
            case ("revision", .variant(.uint64(let number))): revision = number
            default:
                throw CliptabError(
                    .invalidArgument,
                    "unknown option \"\(key)\" (or not of its type); the options are revision (t)")
            }
        }
        return revision
    }

    /// The `dry_run` option of `ApplyTable`; an unknown option, or one of another type, is
    /// `InvalidArgument`, so that a later option is never silently ignored.
    private static func applyOptions(_ value: BusValue) throws -> Bool {
        guard case .dictionary(_, _, let entries) = value else { return false }
        var dryRun = false
        for (key, value) in entries {
            guard case .string(let key) = key else { continue }
            switch (key, value) {
            case ("dry_run", .variant(.boolean(let on))): dryRun = on
            default:
                throw CliptabError(
                    .invalidArgument,
                    "unknown option \"\(key)\" (or not of its type); the options are dry_run (b)")
            }
        }
        return dryRun
    }
}
