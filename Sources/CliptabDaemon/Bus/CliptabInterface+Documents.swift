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
                let dryRun = try CallOptions(a.values[3], known: [("dry_run", "b")]).bool("dry_run")
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
                let revision = try CallOptions(a.values[4], known: [("revision", "t")]).uint64("revision")
                return [
                    .uint64(
                        try service.tables.editCell(
                            a.string("table"), section: a.int32("section"), row: a.int32("row"),
                            text: a.string("text"), revision: revision))
                ]
            },
        ]
    }
}
