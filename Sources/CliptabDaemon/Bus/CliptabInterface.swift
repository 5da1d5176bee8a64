// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import DBus

/// The `io.github.cliptab.Cliptab1` interface: one row per method, signal and property, the single source of
/// the dispatch table and of the introspection XML.
///
/// Handlers only decode arguments, call the service, and encode the reply. The rows hold no
/// service: `declaration` describes the interface without one (`--print-introspection`).
public struct CliptabInterface {
    /// The daemon's version string (`Version` property).
    public static let version = "0.1.0"
    /// The largest reply the daemon builds (GetRows, ExportTable, GetCell…): far below the
    /// bus's 128 MiB message limit, so that no reply can be refused by the bus.
    public static let maxReplyBytes = 64 << 20

    private let service: ClipboardService
    /// The daemon's one reload, which answers `Reload` (`DaemonServices.reload()`).
    private let reload: () -> [String]

    /// Makes the interface over `services`.
    public init(services: DaemonServices) {
        service = services.service
        reload = { [weak services] in services?.reload() ?? [] }
    }

    /// The interface description with its handlers.
    public func makeInterface() -> BusInterface {
        BusInterface(
            name: CliptabBus.interface, methods: Self.methods.map { $0.bound(to: service, reload: reload) },
            signals: Self.signals, properties: Self.properties.map { $0.bound(to: service) })
    }

    /// The interface's description alone, with no service behind it: never registered.
    public static var declaration: BusInterface {
        BusInterface(
            name: CliptabBus.interface, methods: methods.map(\.declaration), signals: signals,
            properties: properties.map(\.declaration))
    }

    /// The introspection XML of the interface (what `--print-introspection` prints).
    public static var introspectionXML: String { BusIntrospection.xml(for: [declaration]) }

    /// Every signal of the contract, with argument names.
    public static var signals: [BusSignal] { CliptabSignal.declarations }

    // MARK: - Properties

    /// Every property of the contract.
    static var properties: [CliptabProperty] {
        [
            CliptabProperty(name: "Version", signature: "s", changeSignal: .const) { _ in .string(version) },
            CliptabProperty(name: "ApiVersion", signature: "u", changeSignal: .const) { _ in
                .uint32(CliptabBus.apiVersion)
            },
            CliptabProperty(name: "Tables", signature: "as") { service in
                tablesValue(service.tables.listTables())
            },
            // Added to the contract: who holds the clipboard, for `cliptab status`.
            CliptabProperty(name: "ClipboardOwned", signature: "b") { service in
                .boolean(service.clipboard.isOwned)
            },
            // Added in API version 3: which clipboard backend serves, and where.
            CliptabProperty(name: "ClipboardBackend", signature: "s", changeSignal: .const) { service in
                .string(service.clipboard.backend.summary)
            },
            CliptabProperty(name: "ClipboardRowId", signature: "t") { service in
                clipboardRowIDValue(owned: service.clipboard.isOwned, rowID: service.copiedRowID)
            },
        ]
    }

    /// The value of `Tables` for the tables `names`, as `Get` answers it and
    /// PropertiesChanged sends it.
    static func tablesValue(_ names: [String]) -> BusValue { strings(names) }

    /// The value of `ClipboardRowId` for a hold on the clipboard: the row served, 0 while the
    /// daemon holds none; as `Get` answers it and PropertiesChanged sends it.
    static func clipboardRowIDValue(owned: Bool, rowID: UInt64) -> BusValue { .uint64(owned ? rowID : 0) }
}
