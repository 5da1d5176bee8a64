// SPDX-License-Identifier: MIT
import CliptabCore
import Glibc
import Posix
import X11Selection

/// The clipboard on an X display: owns CLIPBOARD (and PRIMARY) with copied text, reads
/// other programs' text, clears secret copies after a while, and survives the display
/// going away, coming back through a fresh connection.
public final class X11Clipboard: ClipboardPort, PollSource {
    /// The settings in force.
    public var settings: ClipboardSettings
    /// Called when this daemon's copy leaves the clipboard (another program took it, the
    /// secret timeout cleared it, or the display went away).
    public var onLost: () -> Void = {}

    private let display: String?
    /// Internal for the paste into the focused window (`X11Clipboard+FocusPaste.swift`).
    var service: SelectionService?
    private var nextConnectAttempt: UInt64 = 0
    private var lastConnectError = ""
    /// True when this daemon owned CLIPBOARD as of the last event handling.
    private var owned = false
    /// The secret copy to clear: its deadline, its CLIPBOARD acquisition time and its PRIMARY
    /// one (when it went there too), each cleared on its own.
    var secretClear: (deadline: UInt64, acquired: ServerTime, primary: ServerTime?)?
    /// The paste into the focused window under way, and those waiting for it to end.
    var focusPastes = FocusPasteQueue()

    /// Makes a clipboard for `display` (nil: no display).
    ///
    /// Connects on first use.
    public init(display: String?, settings: ClipboardSettings = ClipboardSettings()) {
        self.display = display.flatMap { $0.isEmpty ? nil : $0 }
        self.settings = settings
        connectIfNeeded(now: MonotonicClock.milliseconds())
    }

    /// A live connection, made now if there is none and the display may be back.
    @discardableResult
    func connectIfNeeded(now: UInt64, force: Bool = false) -> SelectionService? {
        if let service, !service.isBroken { return service }
        // The broken connection is closed before a new attempt: an attempt the server does
        // not answer holds Xlib's global lock, which closing a display may need.
        dropBrokenService(now: now)
        guard let display else { return nil }
        guard force || now >= nextConnectAttempt else { return nil }
        nextConnectAttempt = now + UInt64(settings.reconnectMilliseconds)
        do {
            let configuration = SelectionConfiguration(
                incrementalTimeoutMilliseconds: settings.incrementalTimeoutMilliseconds,
                incrementalChunkBytes: settings.incrementalChunkBytes,
                timestampTimeoutMilliseconds: settings.serverTimeoutMilliseconds,
                serverTimeoutMilliseconds: settings.serverTimeoutMilliseconds)
            let connected = try SelectionService.connect(display: display, configuration: configuration)
            connected.onOwnershipLost = { [weak self] selection in
                guard let self else { return }
                guard selection == .clipboard else {
                    // PRIMARY taken by another program: only CLIPBOARD's clear is left.
                    if selection == .primary { self.secretClear?.primary = nil }
                    return
                }
                // A secret still on PRIMARY keeps its clear pending; CLIPBOARD's part of it
                // no longer matches anything and is skipped.
                if self.secretClear?.primary == nil { self.secretClear = nil }
                self.onLost()
            }
            connected.onTransfer = { [weak self] transfer in self?.focusPasteTransfer(transfer) }
            service = connected
            lastConnectError = ""
            return connected
        } catch {
            lastConnectError = "\(error)"
            return nil
        }
    }

    func unavailable() -> CliptabError {
        guard display != nil else {
            return CliptabError(
                .clipboardUnavailable,
                "no X display: DISPLAY was not set when cliptabd started (import it into the user manager, then restart cliptabd)"
            )
        }
        let reason = lastConnectError.isEmpty ? "the connection was lost" : lastConnectError
        return CliptabError(
            .clipboardUnavailable, "the X display \(display ?? "") is not reachable: \(reason)")
    }

    // MARK: - ClipboardPort

    /// Owns CLIPBOARD (and PRIMARY when configured) with `text`; returns once the server
    /// confirms the ownership.
    public func copy(_ text: String, isSecret: Bool) throws {
        // A clipboard call checks the display at once, not only at the periodic retry.
        guard let service = connectIfNeeded(now: MonotonicClock.milliseconds(), force: true) else {
            throw unavailable()
        }
        let bytes = Array(text.utf8)
        let acquired: ServerTime
        var primary: ServerTime?
        do {
            acquired = try service.own(.clipboard, text: bytes, secret: isSecret)
            if settings.ownPrimary { primary = try? service.own(.primary, text: bytes, secret: isSecret) }
        } catch {
            throw CliptabError(.clipboardUnavailable, "could not take the clipboard: \(error)")
        }
        secretClear =
            isSecret
            ? (MonotonicClock.milliseconds() + UInt64(settings.secretClearMilliseconds), acquired, primary)
            : nil
    }

    /// Gives up CLIPBOARD and PRIMARY with their acquisition times, so a newer owner's
    /// text stays.
    public func clear() {
        secretClear = nil
        guard let service, !service.isBroken else { return }
        service.release(.clipboard)
        service.release(.primary)
    }

    /// Reads CLIPBOARD's text and its password mark; answers from memory when this daemon
    /// owns it.
    public func read(completion: @escaping (Result<ClipboardText, CliptabError>) -> Void) {
        guard let service = connectIfNeeded(now: MonotonicClock.milliseconds(), force: true) else {
            completion(.failure(unavailable()))
            return
        }
        let timeout = settings.readTimeoutMilliseconds
        service.readMarkedText(.clipboard, timeoutMilliseconds: timeout, maxBytes: settings.maxReadBytes) {
            result in
            switch result {
            case .success(let read):
                let bytes = read.bytes
                // D-Bus strings and cells cannot hold NUL: say so by name rather than fail
                // later, generically, when the text is sent or stored.
                if let offset = bytes.firstIndex(of: 0) {
                    completion(
                        .failure(
                            CliptabError(
                                .invalidArgument,
                                "the clipboard text holds NUL bytes at offset \(offset), which a cell cannot store "
                                    + "and D-Bus cannot carry")))
                    return
                }
                completion(
                    .success(
                        ClipboardText(
                            text: String(decoding: bytes, as: UTF8.self), isMarkedSecret: read.markedSecret)))
            case .failure(.empty(let message)):
                completion(.failure(CliptabError(.clipboardEmpty, message)))
            case .failure(.timedOut(let message)):
                completion(
                    .failure(
                        CliptabError(
                            .clipboardUnavailable,
                            "the clipboard's owner did not answer within \(timeout) ms: \(message)")))
            case .failure(.tooLarge(let message)):
                completion(.failure(CliptabError(.limitExceeded, message)))
            case .failure(.busy(let message)):
                completion(.failure(CliptabError(.limitExceeded, message)))
            case .failure(.unavailable(let message)):
                completion(.failure(CliptabError(.clipboardUnavailable, message)))
            }
        }
    }

    /// True while this daemon owns CLIPBOARD.
    public var isOwned: Bool { service.map { !$0.isBroken && $0.owns(.clipboard) } ?? false }

    // MARK: - PollSource

    /// The X connection's descriptor, while there is a live one.
    public var pollDescriptor: Int32? {
        guard let service, !service.isBroken else { return nil }
        return service.fileDescriptor
    }

    /// Handles X events, clears an expired secret copy, and retries a lost display.
    public func process(now: UInt64) {
        if let service {
            owned = !service.isBroken && service.owns(.clipboard)
            service.processEvents(now: now)
            dropBrokenService(now: now)
        } else if display != nil {
            connectIfNeeded(now: now)
        }
        processFocusPaste(now: now)
        if let pending = secretClear, now >= pending.deadline {
            secretClear = nil
            // Only the very copy that was made secret is cleared: if another program, or a
            // newer copy of ours, holds the clipboard now, it stays.
            // CLIPBOARD and PRIMARY are checked each on its own: another program may have
            // taken one while the secret still sits in the other.
            if let service, service.acquisitionTime(.clipboard) == pending.acquired, service.owns(.clipboard)
            {
                service.release(.clipboard)
                onLost()
            }
            if let service, let primary = pending.primary, service.acquisitionTime(.primary) == primary,
                service.owns(.primary)
            {
                service.release(.primary)
            }
        }
    }

    /// Drops a broken connection (never touched again) and schedules the reconnect; tells
    /// `onLost` when the clipboard was ours as of the last look.
    private func dropBrokenService(now: UInt64) {
        guard let service, service.isBroken else { return }
        // Never touch a broken Display again: drop it and reconnect later.
        self.service = nil
        secretClear = nil
        nextConnectAttempt = now + UInt64(settings.reconnectMilliseconds)
        if owned {
            owned = false
            onLost()
        }
    }

    /// The earliest of the X service's deadline, the secret clear, and the next retry.
    public func nextDeadline() -> UInt64? {
        var deadlines: [UInt64] = []
        if let service, !service.isBroken {
            if let deadline = service.nextDeadline() { deadlines.append(deadline) }
        } else if display != nil {
            deadlines.append(nextConnectAttempt)
        }
        if let pending = secretClear { deadlines.append(pending.deadline) }
        if let deadline = focusPastes.nextDeadline { deadlines.append(deadline) }
        return deadlines.min()
    }

    /// At exit: hands a non-secret copy to a running clipboard manager (bounded wait), and
    /// gives up a secret one.
    public func shutdown() {
        guard let service, !service.isBroken else { return }
        if secretClear != nil {
            clear()
            return
        }
        _ = service.handOverToClipboardManager(timeoutMilliseconds: settings.handOverMilliseconds)
    }
}
