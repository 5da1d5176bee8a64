// SPDX-License-Identifier: MIT
import CWayland
import Glibc
import Posix

/// Reading what other programs offer.
extension WaylandSelectionService {
    /// The text types in the order `readText` prefers them.
    public static let textTypePreference = [
        "text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "STRING", "TEXT",
    ]

    /// The MIME types offered for `selection` (ours when we own it), in the order offered;
    /// empty when nothing is offered.
    public func offeredTypes(_ selection: WaylandSelectionName) -> [String] {
        if let ownership = ownerships[selection] { return ownership.mimeTypes }
        return offers[selection]?.mimeTypes ?? []
    }

    /// The best text type of `types` by `textTypePreference`, or nil.
    public static func preferredTextType(_ types: [String]) -> String? {
        textTypePreference.first { types.contains($0) }
    }

    /// Reads `selection` as `mimeType` through a pipe, without blocking.
    ///
    /// At most `maxBytes`, within `timeoutMilliseconds`; `completion` runs once, inside a
    /// later `processEvents(now:)`. A selection we own is answered from our own data.
    public func read(
        _ selection: WaylandSelectionName, mimeType: String, timeoutMilliseconds: Int, maxBytes: Int,
        completion: @escaping (Result<[UInt8], WaylandReadError>) -> Void
    ) {
        func fail(_ error: WaylandReadError) { notifications.append { completion(.failure(error)) } }
        guard !display.isBroken else { return fail(.broken) }
        if selection == .primary && !primarySupported { return fail(.primaryUnsupported) }
        if let ownership = ownerships[selection] {
            guard let bytes = ownership.formats[mimeType] else { return fail(.typeNotOffered(mimeType)) }
            guard bytes.count <= maxBytes else { return fail(.tooLarge(limit: maxBytes)) }
            notifications.append { completion(.success(bytes)) }
            return
        }
        guard let offer = offers[selection] else { return fail(.nothingOffered) }
        guard offer.mimeTypes.contains(mimeType) else { return fail(.typeNotOffered(mimeType)) }
        guard reads.count < max(configuration.maximumPendingReads, 1) else { return fail(.busy) }
        var ends: [Int32] = [-1, -1]
        guard CWayland_pipe(&ends) == 0 else { return fail(.systemCall("pipe2", code: errno)) }
        // libwayland duplicates the descriptor when it marshals the request.
        offer.receive(mimeType, into: ends[1])
        close(ends[1])
        display.flush()
        let read = IncomingRead(
            fileDescriptor: ends[0], maximumBytes: maxBytes,
            deadline: MonotonicClock.milliseconds() + UInt64(max(timeoutMilliseconds, 0)),
            completion: completion)
        do {
            try watcher.watch(ends[0], for: .readable)
        } catch {
            // `read` closes its end when released here.
            if case .systemCall(let call, let code) = error { return fail(.systemCall(call, code: code)) }
            return fail(.broken)
        }
        reads.append(read)
    }

    /// Reads the text of `selection` in the best text type offered (see
    /// `textTypePreference`), after the password hint `x-kde-passwordManagerHint` when it is
    /// offered (its content `secret` marks the text); the whole within `timeoutMilliseconds`.
    public func readText(
        _ selection: WaylandSelectionName, timeoutMilliseconds: Int, maxBytes: Int,
        completion: @escaping (Result<WaylandText, WaylandReadError>) -> Void
    ) {
        let types = offeredTypes(selection)
        guard let textType = Self.preferredTextType(types) else {
            let error: WaylandReadError =
                display.isBroken
                ? .broken
                : (types.isEmpty
                    ? (selection == .primary && !primarySupported ? .primaryUnsupported : .nothingOffered)
                    : .noText)
            notifications.append { completion(.failure(error)) }
            return
        }
        let deadline = MonotonicClock.milliseconds() + UInt64(max(timeoutMilliseconds, 0))
        let readText: (Bool) -> Void = { [weak self] secret in
            guard let self else { return completion(.failure(.broken)) }
            let now = MonotonicClock.milliseconds()
            guard now < deadline else { return completion(.failure(.timedOut)) }
            self.read(
                selection, mimeType: textType, timeoutMilliseconds: Int(deadline - now), maxBytes: maxBytes
            ) {
                completion($0.map { WaylandText(bytes: $0, mimeType: textType, markedSecret: secret) })
            }
        }
        guard types.contains(Self.passwordHintType) else { return readText(false) }
        read(
            selection, mimeType: Self.passwordHintType, timeoutMilliseconds: timeoutMilliseconds, maxBytes: 64
        ) {
            result in
            readText(Self.hintMarksSecret((try? result.get()) ?? []))
        }
    }

    /// True when `hint`, the content of an owner's password hint
    /// (`x-kde-passwordManagerHint`), marks its text secret: `secret`, with spaces or line
    /// ends around it tolerated (an owner that writes it with a newline means the same).
    ///
    /// The one reading of the hint: for a text read and for a paste's snapshot alike.
    public static func hintMarksSecret(_ hint: [UInt8]) -> Bool {
        let blank: Set<UInt8> = [9, 10, 13, 32]
        guard let first = hint.firstIndex(where: { !blank.contains($0) }),
            let last = hint.lastIndex(where: { !blank.contains($0) })
        else { return false }
        return hint[first...last].elementsEqual("secret".utf8)
    }

    /// Reads from every owner's pipe what it has; fails the reads past their deadline.
    func advanceReads(now: UInt64) {
        for read in reads {
            if let outcome = read.read() {
                finish(read, outcome)
            } else if now >= read.deadline {
                finish(read, .failure(.timedOut))
            }
        }
    }

    func finish(_ read: IncomingRead, _ outcome: Result<[UInt8], WaylandReadError>) {
        watcher.unwatch(read.fileDescriptor)
        reads.removeAll { $0 === read }
        let completion = read.completion
        notifications.append { completion(outcome) }
    }
}
