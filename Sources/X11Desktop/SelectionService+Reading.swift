// SPDX-License-Identifier: MIT
import Posix

/// Reading what another program (or this service) holds in a selection.
extension SelectionService {
    /// Reads the text of `selection` as UTF-8, without the owner's mark (see
    /// `readMarkedText`, which this calls).
    public func readText(
        _ selection: SelectionName, timeoutMilliseconds: Int, maxBytes: Int,
        completion: @escaping (Result<[UInt8], SelectionReadError>) -> Void
    ) {
        readMarkedText(selection, timeoutMilliseconds: timeoutMilliseconds, maxBytes: maxBytes) {
            completion($0.map(\.bytes))
        }
    }

    /// Reads the text of `selection` as UTF-8 with the owner's password mark,
    /// asynchronously inside the loop.
    ///
    /// If this service owns the selection, `completion` runs before the call returns with
    /// the owned text (asking ourselves would deadlock a single-threaded owner). Otherwise it
    /// asks the owner for TARGETS, then for the best text target (UTF8_STRING >
    /// text/plain;charset=utf-8 > STRING > COMPOUND_TEXT > TEXT), receiving INCR transfers,
    /// and `completion` runs from `processEvents(now:)`. STRING is converted from Latin-1;
    /// ill-formed UTF-8 from an owner is repaired (each bad sequence becomes U+FFFD), so
    /// the result is always valid UTF-8. When the owner offers `x-kde-passwordManagerHint`,
    /// that target is read first (at most 64 bytes): the text is marked secret when it is
    /// exactly `secret`; our own text is marked when we own it as a secret. Fails with
    /// `.tooLarge` past `maxBytes`, with `.timedOut` after `timeoutMilliseconds` in all.
    public func readMarkedText(
        _ selection: SelectionName, timeoutMilliseconds: Int, maxBytes: Int,
        completion: @escaping (Result<SelectionText, SelectionReadError>) -> Void
    ) {
        guard !connection.isBroken else {
            completion(.failure(.unavailable(lostMessage)))
            return
        }
        reader.read(
            selection, timeoutMilliseconds: timeoutMilliseconds, maxBytes: maxBytes,
            now: MonotonicClock.milliseconds(), completion: completion)
    }

    /// Reads every format another program offers for `selection`, for serving it again
    /// later (`own(_:snapshot:secret:at:)`), asynchronously inside the loop.
    ///
    /// At most `maxBytes` in all (`.tooLarge` past it) and `timeoutMilliseconds` in all. Our
    /// own selection answers at once, from memory.
    public func readSnapshot(
        _ selection: SelectionName, timeoutMilliseconds: Int, maxBytes: Int,
        completion: @escaping (Result<SelectionSnapshot, SelectionReadError>) -> Void
    ) {
        guard !connection.isBroken else {
            completion(.failure(.unavailable(lostMessage)))
            return
        }
        if let ownership = ownerships[selection] {
            let snapshot =
                ownership.snapshot
                ?? SelectionSnapshot(
                    formats: [
                        .init(
                            target: atoms.utf8String, type: atoms.utf8String, format: 8, data: ownership.text)
                    ], markedSecret: ownership.secret)
            completion(.success(snapshot))
            return
        }
        reader.readSnapshot(
            selection, timeoutMilliseconds: timeoutMilliseconds, maxBytes: maxBytes,
            now: MonotonicClock.milliseconds(), completion: completion)
    }
}
