// SPDX-License-Identifier: MIT
import CliptabCore
import DBus

extension CliptabInterface {
    /// The methods of table documents (API version 4): a document applied to a table.
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
            }
        ]
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
