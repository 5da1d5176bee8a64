// SPDX-License-Identifier: MIT
import CliptabCore
import Testing

/// A service over a `MemoryPersistence` that keeps the events it sends, with readers that
/// see the tables only through the service's public calls.
final class ServiceRecorder {
    /// Where commits go.
    let persistence = MemoryPersistence()
    /// The service under test.
    let service: TableService
    private let tap = TableEventTap()
    /// The events sent so far (cleared by `takeEvents`).
    var events: [TableEvent] { tap.events }

    /// Makes an empty service with `limits`, reading table files with `documentCodec`.
    init(limits: Limits = .defaults, documentCodec: TableDocumentCodec? = nil) {
        service = TableService(
            catalog: Catalog(), persistence: persistence, limits: limits, documentCodec: documentCodec,
            announce: tap.record)
    }

    /// The events since the last call, and forgets them.
    func takeEvents() -> [TableEvent] {
        defer { tap.clear() }
        return events
    }

    /// Every section's row texts.
    func texts(_ table: String) throws -> [[String]] {
        try rows(table).map { $0.map(\.text) }
    }

    /// Every section's row ids.
    func ids(_ table: String) throws -> [[UInt64]] {
        try rows(table).map { $0.map(\.id) }
    }

    /// Every section's rows.
    func rows(_ table: String) throws -> [[Row]] {
        try service.sections(of: table).indices.map {
            try service.rows(of: table, section: Int32($0), offset: 0, limit: 0)
        }
    }

    /// Every section's header.
    func headers(_ table: String) throws -> [String] {
        try service.sections(of: table).map(\.header)
    }

    /// Expects `body` to throw `code` with a message that contains each of `parts`, and to
    /// change nothing: catalog (revision, content, counters), commits and events.
    func expectRefused(
        _ code: CliptabError.Code, mentioning parts: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        let catalog = service.catalog
        let commits = persistence.committed.count
        let before = events.count
        do {
            try body()
            Issue.record("expected \(code.rawValue), but the call succeeded", sourceLocation: sourceLocation)
        } catch let error as CliptabError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            for part in parts {
                #expect(
                    error.message.contains(part), "\"\(error.message)\" does not mention \"\(part)\"",
                    sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record(
                "expected \(code.rawValue), got a foreign error \(error)", sourceLocation: sourceLocation)
        }
        #expect(
            service.catalog == catalog, "a refused call changed the catalog", sourceLocation: sourceLocation)
        #expect(
            persistence.committed.count == commits, "a refused call committed", sourceLocation: sourceLocation
        )
        #expect(events.count == before, "a refused call sent events", sourceLocation: sourceLocation)
    }
}
