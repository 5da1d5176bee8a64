// SPDX-License-Identifier: MIT
import CliptabCore
import X11Desktop

/// The selection backend on an X display: owns CLIPBOARD and PRIMARY through a
/// `SelectionService`, reads other programs' content, and survives the display going away,
/// coming back through a fresh connection.
///
/// It numbers its ownerships (the policy's stamps) and remembers each one's server time, so
/// that a replacing `own` passes that time to the server: a copy another program made since
/// then is newer, and the server keeps it.
public final class X11SelectionBackend: SelectionBackend {
    /// X11 has PRIMARY and names the requestor of every conversion; through XWayland it may
    /// not see a Wayland program's copy (`blindSpot`).
    public let capabilities: SelectionCapabilities
    /// The settings in force.
    public var settings: ClipboardSettings

    private let display: String?
    private var service: SelectionService?
    /// The ownerships of ours (under the server's acquisition time), the events and the retries.
    private let books: SelectionBookkeeping<ServerTime>

    /// Makes a backend for `display` (nil: no display) on `clock` (monotonic milliseconds);
    /// connects at once.
    ///
    /// `waylandNote`, when the session is Wayland, says why X11 serves it (its words go into
    /// `summary`); `blindSpot` says why X11 may not see the current owner there.
    public init(
        display: String?, settings: ClipboardSettings, waylandNote: String? = nil, blindSpot: String? = nil,
        clock: @escaping () -> UInt64
    ) {
        self.display = display.flatMap { $0.isEmpty ? nil : $0 }
        self.settings = settings
        self.waylandNote = waylandNote
        capabilities = SelectionCapabilities(primary: true, namesReaders: true, blindSpot: blindSpot)
        books = SelectionBookkeeping(
            kind: "X", display: self.display ?? "", reconnectMilliseconds: settings.reconnectMilliseconds,
            callsRetryAfterLoss: true, clock: clock)
        connectIfNeeded()
    }

    private let waylandNote: String?

    /// The backend in words: `x11 (:0)`, or through XWayland with the reason.
    public var summary: String {
        let name = display ?? "no display"
        guard let waylandNote else { return "x11 (\(name))" }
        return "x11 through XWayland (\(name)): \(waylandNote)"
    }

    // MARK: - Connection

    /// A live connection, made now if there is none and the display may be back (`force`:
    /// whatever the retry time; a clipboard call checks the display at once).
    ///
    /// The broken connection is closed before a new attempt: an attempt the server does not
    /// answer holds Xlib's global lock, which closing a display may need.
    @discardableResult
    func connectIfNeeded(force: Bool = false) -> SelectionService? {
        guard let display else { return nil }
        return books.live(
            &service, force: force,
            broken: { $0.isBroken ? "the X server went away or stopped answering" : nil }
        ) {
            try SelectionService.connect(
                display: display,
                configuration: SelectionConfiguration(
                    incrementalTimeoutMilliseconds: settings.incrementalTimeoutMilliseconds,
                    incrementalChunkBytes: settings.incrementalChunkBytes,
                    timestampTimeoutMilliseconds: settings.serverTimeoutMilliseconds,
                    serverTimeoutMilliseconds: settings.serverTimeoutMilliseconds))
        }
    }

    /// Why there is no connection, as a `ClipboardUnavailable` a person can act on.
    func unavailable() -> CliptabError {
        guard display != nil else {
            return CliptabError(
                .clipboardUnavailable,
                "no X display: DISPLAY was not set when cliptabd started (import it into the user manager, then restart cliptabd)"
            )
        }
        return books.unavailable()
    }

    /// True when `reader` owns `CLIPBOARD_MANAGER`: one round trip, asked while a sequence runs.
    public func isClipboardManager(_ reader: UInt64) -> Bool {
        service.map { $0.clipboardManagerClient() == reader } ?? false
    }

    static func selection(_ name: SelectionName) -> ClipboardSelection {
        name == .clipboard ? .clipboard : .primary
    }

    static func name(_ selection: ClipboardSelection) -> SelectionName {
        selection == .clipboard ? .clipboard : .primary
    }

    // MARK: - SelectionBackend

    /// Owns `selection` with `content`; returns once the server confirms the ownership.
    public func own(
        _ selection: ClipboardSelection, _ content: SelectionContent, secret: Bool, replacing: OwnershipStamp?
    ) throws -> OwnershipStamp {
        guard let service = connectIfNeeded(force: true) else { throw unavailable() }
        let name = Self.name(selection)
        var at: ServerTime?
        if let replacing {
            guard let ownership = books.ownership(selection), ownership.stamp == replacing, service.owns(name)
            else {
                throw CliptabError(
                    .clipboardUnavailable, "another program took \(selection) since; its content stays")
            }
            at = ownership.token
        }
        let time: ServerTime
        do {
            switch content {
            case .text(let text):
                time = try service.own(name, string: text, secret: secret, at: at)
            case .saved(let saved):
                guard let saved = saved as? X11SavedClipboard else {
                    throw CliptabError(.clipboardUnavailable, "that content was read by another backend")
                }
                time = try service.own(name, snapshot: saved.snapshot, secret: secret, at: at)
            }
        } catch let error as CliptabError {
            throw error
        } catch {
            if !service.owns(name) { books.lost(selection) }
            let what = replacing == nil ? "could not take" : "did not put back"
            throw CliptabError(.clipboardUnavailable, "\(what) \(selection): \(error)")
        }
        return books.owned(selection, token: time)
    }

    /// Gives `selection` up with its acquisition time, so a newer owner's content stays.
    public func release(_ selection: ClipboardSelection, _ stamp: OwnershipStamp) {
        guard books.release(selection, stamp) != nil, let service, !service.isBroken else { return }
        service.release(Self.name(selection))
    }

    /// The current ownership of ours, as far as the events handled so far tell.
    public func currentStamp(_ selection: ClipboardSelection) -> OwnershipStamp? {
        let name = Self.name(selection)
        guard let service, !service.isBroken, let ownership = books.ownership(selection), service.owns(name),
            service.acquisitionTime(name) == ownership.token
        else { return nil }
        return ownership.stamp
    }

    /// Reads the text and its password mark; answers from memory when this daemon owns it.
    public func readText(
        _ selection: ClipboardSelection, completion: @escaping (Result<ClipboardText, CliptabError>) -> Void
    ) {
        guard let service = connectIfNeeded(force: true) else { return completion(.failure(unavailable())) }
        let timeout = settings.readTimeoutMilliseconds
        service.readMarkedText(
            Self.name(selection), timeoutMilliseconds: timeout, maxBytes: settings.maxReadBytes
        ) {
            result in
            completion(
                result.mapError { Self.readError($0, timeout: timeout) }.flatMap {
                    ClipboardText.decoding($0.bytes, isMarkedSecret: $0.markedSecret)
                })
        }
    }

    /// Reads every format another program offers, for the restore after a paste.
    public func readSaved(
        _ selection: ClipboardSelection, maxBytes: Int,
        completion: @escaping (Result<SavedClipboard, CliptabError>) -> Void
    ) {
        guard let service = connectIfNeeded(force: true) else { return completion(.failure(unavailable())) }
        let timeout = settings.readTimeoutMilliseconds
        service.readSnapshot(Self.name(selection), timeoutMilliseconds: timeout, maxBytes: maxBytes) {
            result in
            completion(
                result.map { X11SavedClipboard(snapshot: $0) as SavedClipboard }
                    .mapError { Self.readError($0, timeout: timeout) })
        }
    }

    /// Hands a non-secret clipboard of ours to a running clipboard manager (bounded wait).
    public func handOver() {
        guard let service, !service.isBroken else { return }
        _ = service.handOverToClipboardManager(timeoutMilliseconds: settings.handOverMilliseconds)
    }

    /// The X connection's descriptor, while there is a live one.
    public var pollDescriptor: Int32? {
        guard let service, !service.isBroken else { return nil }
        return service.fileDescriptor
    }

    /// Handles X events and retries a lost display; returns what happened to our selections.
    public func process(now: UInt64) -> [SelectionEvent] {
        if let service {
            service.processEvents(now: now)
            for notice in service.takeNotices() {
                switch notice {
                case .lost(let name): books.lost(Self.selection(name))
                case .transfer(let transfer):
                    books.served(
                        Self.selection(transfer.selection), token: transfer.acquisitionTime,
                        reader: service.client(of: transfer.requestor), textDelivered: transfer.textDelivered)
                }
            }
        }
        connectIfNeeded()
        return books.takeEvents()
    }

    /// The earliest of the X service's deadline and the next retry.
    public func nextDeadline() -> UInt64? {
        if books.hasEvents { return 0 }
        if let service, !service.isBroken { return service.nextDeadline() }
        return display != nil ? books.nextAttempt : nil
    }

    /// The live connection for the key injector, which sends its keys on the connection
    /// that owns the selection (so the owner sees the target's request that follows).
    func liveService() throws -> SelectionService {
        guard let service = connectIfNeeded(force: true) else { throw unavailable() }
        return service
    }

    /// A read's failure as the service answers it.
    private static func readError(_ error: SelectionReadError, timeout: Int) -> CliptabError {
        switch error {
        case .empty(let message): return CliptabError(.clipboardEmpty, message)
        case .timedOut(let message):
            return CliptabError(
                .clipboardUnavailable, "the clipboard's owner did not answer within \(timeout) ms: \(message)"
            )
        case .tooLarge(let message), .busy(let message): return CliptabError(.limitExceeded, message)
        case .unavailable(let message): return CliptabError(.clipboardUnavailable, message)
        }
    }
}

/// Another program's X11 clipboard content, every target it offered.
final class X11SavedClipboard: SavedClipboard {
    let snapshot: SelectionSnapshot

    init(snapshot: SelectionSnapshot) { self.snapshot = snapshot }

    var byteCount: Int { snapshot.byteCount }
    var formatCount: Int { snapshot.formatCount }
    var isMarkedSecret: Bool { snapshot.markedSecret }
}
