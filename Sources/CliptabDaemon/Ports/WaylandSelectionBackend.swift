// SPDX-License-Identifier: MIT
import CliptabCore
import WaylandDesktop

/// The selection backend of a Wayland session: the clipboard and the primary selection
/// through the compositor's data-control protocol (`ext_data_control_manager_v1` or
/// `zwlr_data_control_manager_v1`), which needs no focus and no surface.
///
/// Readers are anonymous on Wayland; what a served read is numbered by instead is the
/// keystroke mark it came after (`WaylandSelectionService.markKeystroke()`, set by the
/// key injectors after each chord): a paste's target reads after its chord's mark, while
/// clipboard managers read every new selection before it. A compositor that goes
/// away, stops answering or drops the connection breaks it: every ownership ends with it,
/// tables are served meanwhile, the loss is logged, and a fresh connection is tried after
/// `reconnectMilliseconds`, backing off while the compositor keeps dropping it
/// (`SelectionBookkeeping`); clipboard calls meanwhile say when and why it was lost.
public final class WaylandSelectionBackend: SelectionBackend {
    /// What it can do: PRIMARY where the manager has it; readers are "named" by the
    /// keystroke mark they came after, which is what the paste's target is told apart by.
    public var capabilities: SelectionCapabilities {
        SelectionCapabilities(primary: primarySupported, namesReaders: true, readersByKeystrokes: true)
    }
    /// Makes the virtual keyboard on each new connection, for the key injector.
    private let keyboards: VirtualKeyboardSupply?
    /// The settings in force.
    public var settings: ClipboardSettings

    private let display: String
    private var service: WaylandSelectionService?
    private var primarySupported = true
    /// The ownerships of ours (under the service's tokens), the events and the retries.
    private let books: SelectionBookkeeping<WaylandOwnershipToken>

    /// Connects to `display` (a `WAYLAND_DISPLAY` value) at once; `clock` (monotonic
    /// milliseconds) times the retries and the reads.
    ///
    /// `connectError` says why when it failed (the daemon then may choose X11 instead), and
    /// calls retry later. `keyboards`, where keys are typed, gets each new connection to
    /// make its keyboard on.
    public init(
        display: String, settings: ClipboardSettings, keyboards: VirtualKeyboardSupply?,
        clock: @escaping () -> UInt64
    ) {
        self.display = display
        self.settings = settings
        self.keyboards = keyboards
        books = SelectionBookkeeping(
            kind: "Wayland", display: display, reconnectMilliseconds: settings.reconnectMilliseconds,
            callsRetryAfterLoss: false, clock: clock)
        connectIfNeeded(force: true)
    }

    /// Why the first connection failed, or nil when it worked.
    public var connectError: String? { service == nil ? books.lastError : nil }

    /// The data-control interface the compositor gave.
    public private(set) var protocolName = ""

    /// The backend in words: `wayland (zwlr_data_control_manager_v1 on wayland-1)`.
    public var summary: String {
        "wayland (\(protocolName.isEmpty ? "no data-control yet" : protocolName) on \(display))"
    }

    // MARK: - Connection

    /// The live connection, made now if there is none (for the key injectors).
    public func liveService() -> WaylandSelectionService? { connectIfNeeded(force: true) }

    /// A live connection, made now if there is none and the compositor may be back.
    ///
    /// `force` (a clipboard call) tries at once, but not after a loss: then only the
    /// schedule's attempts do, so that calls cannot undo the back-off.
    @discardableResult
    private func connectIfNeeded(force: Bool = false) -> WaylandSelectionService? {
        books.live(&service, force: force, broken: { $0.isBroken ? $0.failure.map { "\($0)" } ?? "" : nil }) {
            let connected = try WaylandSelectionService.connect(
                display: display,
                configuration: WaylandSelectionConfiguration(
                    transferTimeoutMilliseconds: settings.incrementalTimeoutMilliseconds,
                    compositorTimeoutMilliseconds: settings.serverTimeoutMilliseconds))
            primarySupported = connected.supportsPrimarySelection
            protocolName = connected.protocolName
            keyboards?.connected(connected)
            return connected
        }
    }

    /// Lets `service` handle what the compositor sent, then takes its notices, in order.
    private func processEvents(of service: WaylandSelectionService, now: UInt64) {
        service.processEvents(now: now)
        for notice in service.takeNotices() {
            switch notice {
            case .lost(let name, let token): books.lost(Self.selection(name), token: token)
            case .transfer(let transfer):
                let text = WaylandSelectionService.textTypePreference.contains(transfer.mimeType)
                books.served(
                    Self.selection(transfer.selection), reader: transfer.keystrokesBefore,
                    textDelivered: text && transfer.isComplete,
                    // Readers are anonymous: a sequence judges a read by when it began.
                    origin: ReadOrigin(client: nil, startedAt: transfer.startedAt))
            }
        }
    }

    private static func selection(_ name: WaylandSelectionName) -> ClipboardSelection {
        name == .clipboard ? .clipboard : .primary
    }

    private static func name(_ selection: ClipboardSelection) -> WaylandSelectionName {
        selection == .clipboard ? .clipboard : .primary
    }

    // MARK: - SelectionBackend

    /// Owns `selection` with `content`; returns once a round trip showed the compositor
    /// took it.
    ///
    /// Wayland has no timestamps: a replacing `own` checks that the ownership it replaces
    /// is still ours as far as the events read so far tell.
    public func own(
        _ selection: ClipboardSelection, _ content: SelectionContent, secret: Bool, replacing: OwnershipStamp?
    ) throws -> OwnershipStamp {
        guard let service = connectIfNeeded(force: true) else { throw books.unavailable() }
        let name = Self.name(selection)
        if let replacing {
            processEvents(of: service, now: books.now)
            guard let ownership = books.ownership(selection), ownership.stamp == replacing,
                service.ownershipToken(name) == ownership.token
            else {
                throw CliptabError(
                    .clipboardUnavailable, "another program took the \(name) since; its content stays")
            }
        }
        let formats: [(mime: String, bytes: [UInt8])]
        switch content {
        case .text(let text): formats = WaylandSelectionService.textFormats(Array(text.utf8))
        case .saved(let saved):
            guard let saved = saved as? WaylandSavedClipboard else {
                throw CliptabError(.clipboardUnavailable, "that content was read by another backend")
            }
            formats = saved.formats
        }
        let token: WaylandOwnershipToken
        do {
            token = try service.own(name, formats: formats, secret: secret)
        } catch {
            books.lost(selection)
            throw CliptabError(.clipboardUnavailable, "could not take the \(name): \(error)")
        }
        return books.owned(selection, token: token)
    }

    /// Gives `selection` up if the ownership `stamp` is still the current one.
    public func release(_ selection: ClipboardSelection, _ stamp: OwnershipStamp) {
        guard let token = books.release(selection, stamp) else { return }
        service?.release(Self.name(selection), token: token)
    }

    /// The current ownership of ours, as far as the events read so far tell.
    public func currentStamp(_ selection: ClipboardSelection) -> OwnershipStamp? {
        guard let service, !service.isBroken, let ownership = books.ownership(selection),
            service.ownershipToken(Self.name(selection)) == ownership.token
        else { return nil }
        return ownership.stamp
    }

    /// Reads the best text type another program offers, after its password hint.
    public func readText(
        _ selection: ClipboardSelection, completion: @escaping (Result<ClipboardText, CliptabError>) -> Void
    ) {
        guard let service = connectIfNeeded(force: true) else {
            return completion(.failure(books.unavailable()))
        }
        let name = Self.name(selection)
        service.readText(
            name, timeoutMilliseconds: settings.readTimeoutMilliseconds, maxBytes: settings.maxReadBytes
        ) { [settings] result in
            completion(
                result.mapError { Self.readError($0, name, timeout: settings.readTimeoutMilliseconds) }
                    .flatMap { ClipboardText.decoding($0.bytes, isMarkedSecret: $0.markedSecret) })
        }
    }

    /// Reads every type another program offers, one after the other, `maxBytes` in all.
    public func readSaved(
        _ selection: ClipboardSelection, maxBytes: Int,
        completion: @escaping (Result<SavedClipboard, CliptabError>) -> Void
    ) {
        guard let service = connectIfNeeded(force: true) else {
            return completion(.failure(books.unavailable()))
        }
        let name = Self.name(selection)
        let types = service.offeredTypes(name)
        guard !types.isEmpty else {
            return completion(
                .failure(CliptabError(.clipboardEmpty, "nothing to paste: nothing owns the \(name)")))
        }
        let deadline = books.now + UInt64(settings.readTimeoutMilliseconds)
        let wanted = Array(types.prefix(64))
        let timeout = settings.readTimeoutMilliseconds
        // Up to `inFlight` reads at once, so the owner answers one while the next request
        // is on its way (a read each after the other cost a round trip per type).
        let inFlight = 8
        var results: [Result<[UInt8], WaylandReadError>?] = Array(repeating: nil, count: wanted.count)
        var started = 0
        var gathered = 0
        var answered = false
        func finish(_ result: Result<SavedClipboard, CliptabError>) {
            guard !answered else { return }
            answered = true
            completion(result)
        }
        func startNext() {
            guard !answered, started < wanted.count else { return }
            let index = started
            started += 1
            let now = books.now
            guard now < deadline else {
                return finish(.failure(Self.readError(.timedOut, name, timeout: timeout)))
            }
            service.read(
                name, mimeType: wanted[index], timeoutMilliseconds: Int(deadline - now),
                maxBytes: max(maxBytes - gathered, 0)
            ) { result in
                results[index] = result
                if case .success(let bytes) = result { gathered += bytes.count }
                switch result {
                case .failure(.tooLarge), .failure(.broken), .failure(.timedOut):
                    if case .failure(let error) = result {
                        return finish(.failure(Self.readError(error, name, timeout: timeout)))
                    }
                default:
                    break
                }
                guard gathered <= maxBytes else {
                    return finish(
                        .failure(Self.readError(.tooLarge(limit: maxBytes), name, timeout: timeout)))
                }
                if results.allSatisfy({ $0 != nil }) { return finish(.success(assemble())) }
                startNext()
            }
        }
        func assemble() -> WaylandSavedClipboard {
            let saved = WaylandSavedClipboard(formats: [], markedSecret: false)
            for (type, result) in zip(wanted, results) {
                // A type the owner does not give after all is left out.
                guard case .success(let bytes)? = result else { continue }
                if type == WaylandSelectionService.passwordHintType {
                    saved.isMarkedSecret = WaylandSelectionService.hintMarksSecret(bytes)
                } else {
                    saved.formats.append((type, bytes))
                }
            }
            return saved
        }
        for _ in 0..<min(inFlight, wanted.count) { startNext() }
    }

    /// Does nothing: Wayland has no clipboard-manager hand-over (a manager reads every new
    /// selection itself).
    public func handOver() {}

    /// The compositor connection's descriptor, while there is a live one.
    public var pollDescriptor: Int32? {
        guard let service, !service.isBroken else { return nil }
        return service.fileDescriptor
    }

    /// Handles the compositor's events, retries a lost compositor; returns what happened.
    public func process(now: UInt64) -> [SelectionEvent] {
        if let service {
            processEvents(of: service, now: now)
        }
        connectIfNeeded()
        return books.takeEvents()
    }

    /// The earliest of the service's deadline and the next retry.
    public func nextDeadline() -> UInt64? {
        if books.hasEvents { return 0 }
        if let service, !service.isBroken { return service.nextDeadline() }
        return books.nextAttempt
    }

    private static func readError(_ error: WaylandReadError, _ name: WaylandSelectionName, timeout: Int)
        -> CliptabError
    {
        switch error {
        case .nothingOffered, .noText, .typeNotOffered:
            return CliptabError(.clipboardEmpty, "nothing to paste: \(error) (the \(name))")
        case .timedOut:
            return CliptabError(
                .clipboardUnavailable, "the \(name)'s owner did not send its data within \(timeout) ms")
        case .tooLarge, .busy: return CliptabError(.limitExceeded, "\(error)")
        case .primaryUnsupported, .broken, .systemCall: return CliptabError(.clipboardUnavailable, "\(error)")
        }
    }
}

/// Another program's Wayland selection, every type it offered.
final class WaylandSavedClipboard: SavedClipboard {
    var formats: [(mime: String, bytes: [UInt8])]
    var isMarkedSecret: Bool

    init(formats: [(mime: String, bytes: [UInt8])], markedSecret: Bool) {
        self.formats = formats
        isMarkedSecret = markedSecret
    }

    var byteCount: Int { formats.reduce(0) { $0 + $1.bytes.count } }
    var formatCount: Int { formats.count }
}
