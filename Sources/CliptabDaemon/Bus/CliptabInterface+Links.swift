// SPDX-License-Identifier: MIT
import CliptabCore
import DBus

extension CliptabInterface {
    /// The methods of linked tables (API version 4): which tables follow which files, and
    /// linking and unlinking a table.
    static var linkMethods: [CliptabMethod] {
        [
            .immediate(
                "GetLinks", [arg("options", "a{sv}")],
                [arg("folder", "s"), arg("links", "a(ssssas)"), arg("problems", "as")]
            ) { service, a in
                _ = try CallOptions(a.values[0], known: [])
                let links = try linked(service)
                return [
                    .string(links.folder),
                    .array(
                        elementSignature: "(ssssas)",
                        links.links.keys.sorted().compactMap { links.links[$0] }.map { link in
                            let (state, problem): (String, String) =
                                switch link.state {
                                case .following: ("following", "")
                                case .invalid(let problem): ("invalid", problem)
                                }
                            return .structure([
                                .string(link.table), .string(link.path), .string(state), .string(problem),
                                strings(link.conflicts),
                            ])
                        }),
                    strings(links.problems),
                ]
            },
            .immediate(
                "LinkTable", [arg("table", "s"), arg("file", "s"), arg("options", "a{sv}")],
                [arg("file", "s")]
            ) { service, a in
                _ = try CallOptions(a.values[2], known: [])
                let file = try a.string("file")
                return [
                    .string(
                        try linked(service).link(
                            try a.string("table"), file: file.isEmpty ? nil : file, tables: service.tables))
                ]
            },
            .immediate("UnlinkTable", [arg("table", "s"), arg("options", "a{sv}")], []) { service, a in
                _ = try CallOptions(a.values[1], known: [])
                let table = try a.string("table")
                _ = try service.tables.record(of: table)
                try linked(service).unlink(table)
                return []
            },
        ]
    }

    /// The service's linked tables, or `InvalidArgument` for a daemon that follows no folder.
    private static func linked(_ service: ClipboardService) throws -> LinkedTables {
        guard let links = service.links else {
            throw CliptabError(.invalidArgument, "this cliptabd follows no folder of linked tables")
        }
        return links
    }
}
