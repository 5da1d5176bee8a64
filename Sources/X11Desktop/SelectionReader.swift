// SPDX-License-Identifier: MIT
/// The requestor side (ICCCM §2.4, §2.7.2): asynchronous reads of a selection owned by
/// another client, driven by the events of the service's loop.
///
/// Per selection at most one conversion waits for its SelectionNotify at a time: a refusal
/// (property None) names no property, so two outstanding conversions of the same selection
/// could not be told apart. Reads that have moved on to receiving INCR chunks no longer
/// need the notification, so the next read starts then. Each read has its own property,
/// taken from a fixed pool (twice the most reads that may wait), so no atom is interned
/// per read. Reads start, and complete, first-in first-out; a read that ends at once (our
/// own text, no owner) never starts the next one from inside itself: `pump()` does that in
/// a loop, so a long queue costs no stack.
final class SelectionReader {
    /// The most targets a snapshot keeps: programs offer a dozen at most (GTK's text, an
    /// image's few types); an owner listing thousands costs no more than this many
    /// conversions.
    static let snapshotTargetLimit = 64

    /// The most bytes of a password-manager hint read: `secret` and room to spare.
    static let hintLimit = 64

    private let connection: DisplayConnection
    private let ownWindow: WindowID
    private let atoms: KnownAtoms
    private var reads: [PendingRead] = []
    private var freeProperties: [InternedAtom] = []
    /// Properties of reads that ended while the owner may still write (timeout, size cap):
    /// never reused, and emptied whenever the owner writes, so that an owner in the middle
    /// of an INCR transfer runs to its end instead of waiting on us.
    private var abandonedProperties: Set<InternedAtom> = []
    /// Abandoned properties, oldest first: reused, oldest first, once the pool is used up.
    private var abandonedOrder: [InternedAtom] = []
    private var propertiesMade = 0
    /// The most reads waiting at once.
    private let maximumPending: Int
    /// Selections whose next queued read may start, and completions due, in order.
    private var selectionsToStart: [SelectionName] = []
    private var completionsDue: [() -> Void] = []
    private var pumping = false

    /// Answers reads of a selection this client owns by the time the read starts: the
    /// text, and whether it is a secret (the mark our own TARGETS would carry).
    var ownedText: (SelectionName) -> (text: WipingBuffer, secret: Bool)? = { _ in nil }

    /// Makes a reader that receives into properties of `ownWindow`.
    init(connection: DisplayConnection, ownWindow: WindowID, atoms: KnownAtoms, maximumPending: Int) {
        self.connection = connection
        self.ownWindow = ownWindow
        self.atoms = atoms
        self.maximumPending = maximumPending
    }

    /// How many property atoms this reader has interned (at most twice `maximumPending`).
    var propertyCount: Int { propertiesMade }

    /// The number of reads not yet completed.
    var pendingCount: Int { reads.count }

    /// The earliest read deadline, if any.
    var nextDeadline: UInt64? { reads.map(\.deadline).min() }

    /// Starts reading every format another program offers for `selection` (up to
    /// `maxBytes` in all, `timeoutMilliseconds` in all); `completion` runs from a later event
    /// or timeout.
    ///
    /// TARGETS first, then each content target in turn (meta and side-effect targets
    /// skipped, at most `snapshotTargetLimit`); a target the owner refuses is left out. The
    /// password-manager hint is read first and marks the snapshot, as for text.
    func readSnapshot(
        _ selection: SelectionName, timeoutMilliseconds: Int, maxBytes: Int, now: UInt64,
        completion: @escaping SnapshotCompletion
    ) {
        let gathering = SnapshotGathering(completion: completion)
        start(
            selection, timeoutMilliseconds: timeoutMilliseconds, maxBytes: maxBytes, now: now,
            snapshot: gathering
        ) {
            result in
            // Only failures come this way: a snapshot succeeds through `nextSnapshotTarget`.
            if case .failure(let error) = result { completion(.failure(error)) }
        }
    }

    /// Starts reading `selection`; `completion` runs from a later event or timeout.
    func read(
        _ selection: SelectionName, timeoutMilliseconds: Int, maxBytes: Int, now: UInt64,
        completion: @escaping Completion
    ) {
        start(
            selection, timeoutMilliseconds: timeoutMilliseconds, maxBytes: maxBytes, now: now, snapshot: nil,
            completion: completion)
    }

    /// Queues a read (of the text, or with `snapshot` of every format) and starts what may.
    private func start(
        _ selection: SelectionName, timeoutMilliseconds: Int, maxBytes: Int, now: UInt64,
        snapshot: SnapshotGathering?, completion: @escaping Completion
    ) {
        defer { pump() }
        guard reads.count < maximumPending else {
            let message =
                "\(reads.count) clipboard reads are already waiting for their owners; try again when they end"
            completionsDue.append { completion(.failure(.busy(message))) }
            return
        }
        let read = PendingRead(
            selection: selection, property: takeProperty(),
            deadline: now + UInt64(max(timeoutMilliseconds, 0)), timeoutMilliseconds: timeoutMilliseconds,
            maxBytes: max(maxBytes, 0), completion: completion)
        read.snapshot = snapshot
        reads.append(read)
        selectionsToStart.append(selection)
    }

    /// Starts reads and runs completions until none is due, in order; re-entered (from a
    /// completion that reads again) it only queues.
    private func pump() {
        guard !pumping else { return }
        pumping = true
        defer { pumping = false }
        while true {
            if !selectionsToStart.isEmpty {
                startNext(for: selectionsToStart.removeFirst())
            } else if !completionsDue.isEmpty {
                completionsDue.removeFirst()()
            } else {
                return
            }
        }
    }

    // MARK: - Events

    /// Handles a SelectionNotify sent to our window; false when no read expected it.
    func selectionNotified(_ event: ServerEvent.ConversionReply) -> Bool {
        defer { pump() }
        if abandonedProperties.contains(event.property) {
            connection.deleteProperty(ownWindow, event.property)
            return true
        }
        guard let selection = atoms.selection(for: event.selection),
            let read = reads.first(where: { $0.selection == selection && $0.isConverting }),
            case .converting(let target) = read.stage,
            event.property == read.property || (event.property == .none && event.target == target)
        else { return false }
        if event.property == .none {
            refused(read, target: target)
        } else if target == atoms.targets {
            receivedTargets(read)
        } else if target == atoms.passwordManagerHint {
            receivedHint(read)
        } else {
            receivedConversion(read)
        }
        return true
    }

    /// Handles a PropertyNotify on our window (a new INCR chunk for a read).
    ///
    /// Returns false when the property belongs to no read.
    func propertyChanged(_ event: ServerEvent.PropertyChange) -> Bool {
        defer { pump() }
        if abandonedProperties.contains(event.property) {
            if !event.isDeletion { connection.deleteProperty(ownWindow, event.property) }
            return true
        }
        guard let read = reads.first(where: { $0.property == event.property }) else { return false }
        // Only a new value matters, and only once the transfer started; our own deletions
        // and the value written before the SelectionNotify are ignored.
        guard !event.isDeletion, read.isReceivingIncrements else { return true }
        let limit = read.byteLimit - read.received.count
        switch connection.readProperty(ownWindow, read.property, maxBytes: limit, delete: true) {
        case .missing:
            break
        case .tooLarge(let byteCount):
            finish(
                read, .failure(tooLarge(read, atLeast: read.received.count + byteCount)), reuseProperty: false
            )
        case .value(let value) where value.itemCount == 0:
            // ICCCM §2.7.2: a zero-length property ends the transfer.
            var bytes = read.received
            read.received = []
            deliver(read, bytes: &bytes, type: read.receivedType == .none ? value.type : read.receivedType)
        case .value(let value):
            read.received.append(contentsOf: value.bytes)
            read.receivedType = value.type
            read.receivedFormat = value.format
        }
        return true
    }

    /// Fails reads whose deadline passed.
    func expire(now: UInt64) {
        defer { pump() }
        for read in reads where read.deadline <= now {
            let message =
                "the owner of \(read.selection) did not deliver its contents within"
                + " \(read.timeoutMilliseconds) ms (the program may be hung)"
            // The owner may still write into the property later: never reuse it.
            finish(read, .failure(.timedOut(message)), reuseProperty: false)
        }
    }

    /// Fails every read: the display is gone.
    func failAll(_ error: SelectionReadError) {
        defer { pump() }
        while let read = reads.first {
            finish(read, .failure(error), reuseProperty: false)
        }
    }

    // MARK: - Steps

    private func startNext(for selection: SelectionName) {
        guard !reads.contains(where: { $0.selection == selection && $0.holdsSelection }),
            let read = reads.first(where: { $0.selection == selection && $0.isQueued })
        else { return }
        if connection.isBroken {
            finish(read, .failure(.unavailable(brokenMessage)), reuseProperty: false)
        } else if read.snapshot == nil, let owned = ownedText(selection) {
            // Never ask ourselves: a single-threaded owner waiting for its own answer
            // would wait forever (ICCCM §2.4 via Qt's note).
            read.markedSecret = owned.secret
            var bytes = owned.text.copiedBytes
            deliver(read, bytes: &bytes, type: atoms.utf8String)
        } else if connection.selectionOwner(atoms.atom(for: selection)) == .none {
            // No owner, or no answer: a server that did not answer in time broke the connection.
            guard !connection.isBroken else {
                return finish(read, .failure(.unavailable(brokenMessage)), reuseProperty: false)
            }
            let message = "nothing to paste: no program owns \(selection)"
            finish(read, .failure(.empty(message)), reuseProperty: true)
        } else {
            // ICCCM §2.6.2: ask what the owner offers, then pick the best text target.
            convert(read, target: atoms.targets)
        }
    }

    /// Why the broken connection failed: gone, or dropped after the server did not answer.
    private var brokenMessage: String {
        guard connection.timedOut else { return "the X display \(connection.name) is gone" }
        return "the X server of display \(connection.name) did not answer within"
            + " \(connection.timeoutMilliseconds) ms; the connection was dropped"
    }

    private func convert(_ read: PendingRead, target: InternedAtom) {
        read.stage = .converting(target: target)
        // ICCCM §2.4: the property should not exist before the conversion.
        connection.deleteProperty(ownWindow, read.property)
        // CurrentTime: a paste requested over D-Bus has no triggering X event to take the
        // time from; owners accept CurrentTime requests.
        connection.convertSelection(
            atoms.atom(for: read.selection), target: target, property: read.property, requestor: ownWindow,
            time: .current)
        connection.flush()
    }

    private func refused(_ read: PendingRead, target: InternedAtom) {
        if read.snapshot != nil {
            // A refused target is left out; an owner without TARGETS may still give text.
            if target == atoms.targets { read.snapshot?.remaining = [atoms.utf8String, atoms.string] }
            return nextSnapshotTarget(read)
        }
        if target == atoms.passwordManagerHint, let textTarget = read.textTarget {
            // A refused hint marks nothing: the text is read as unmarked.
            read.textTarget = nil
            convert(read, target: textTarget)
            return
        }
        if target == atoms.targets {
            // An owner that does not answer TARGETS may still convert to text.
            read.fallbackTargets = [atoms.utf8String, atoms.string]
        }
        if !read.fallbackTargets.isEmpty {
            convert(read, target: read.fallbackTargets.removeFirst())
            return
        }
        let message = "the owner of \(read.selection) refused to give its contents as text"
        finish(read, .failure(.empty(message)), reuseProperty: true)
    }

    private func receivedTargets(_ read: PendingRead) {
        guard
            case .value(let value) = connection.readProperty(
                ownWindow, read.property, maxBytes: 1 << 16, delete: true)
        else {
            refused(read, target: atoms.targets)
            return
        }
        let offered = value.atoms
        if let gathering = read.snapshot {
            let skipped =
                [
                    atoms.targets, atoms.multiple, atoms.timestamp, atoms.saveTargets,
                    atoms.passwordManagerHint,
                    .none,
                ] + atoms.sideEffectTargets
            var seen = Set<InternedAtom>()
            gathering.remaining = Array(
                offered.filter { !skipped.contains($0) && seen.insert($0).inserted }.prefix(
                    Self.snapshotTargetLimit))
            if offered.contains(atoms.passwordManagerHint) {
                convert(read, target: atoms.passwordManagerHint)
            } else {
                nextSnapshotTarget(read)
            }
            return
        }
        // Best first: UTF-8 is lossless; STRING is Latin-1 only; COMPOUND_TEXT needs Xlib.
        let preference = [
            atoms.utf8String, atoms.plainTextUTF8, atoms.string, atoms.compoundText, atoms.text,
        ]
        if let best = preference.first(where: offered.contains) {
            if offered.contains(atoms.passwordManagerHint) {
                // KDE's convention, kept by KeePassXC: the hint is asked before the text, so
                // the caller knows a password when it sees one.
                read.textTarget = best
                convert(read, target: atoms.passwordManagerHint)
            } else {
                convert(read, target: best)
            }
            return
        }
        let names = offered.prefix(8).compactMap(connection.atomName).joined(separator: ", ")
        let message =
            "\(read.selection) holds no text (its owner offers: \(names.isEmpty ? "nothing" : names))"
        finish(read, .failure(.empty(message)), reuseProperty: true)
    }

    /// Records whether the hint is exactly `secret` (anything else, missing, too long or
    /// odd, marks nothing), then converts the text target.
    private func receivedHint(_ read: PendingRead) {
        if read.snapshot != nil {
            readHint(read)
            return nextSnapshotTarget(read)
        }
        guard let textTarget = read.textTarget else {
            return refused(read, target: atoms.passwordManagerHint)
        }
        read.textTarget = nil
        readHint(read)
        convert(read, target: textTarget)
    }

    /// Reads the hint's value from the read's property into `markedSecret`.
    private func readHint(_ read: PendingRead) {
        let contents = connection.readProperty(
            ownWindow, read.property, maxBytes: Self.hintLimit, delete: true)
        if case .value(let value) = contents {
            if value.type == atoms.incremental {
                // The deletion started an INCR transfer of the hint into this property: the
                // owner may write into it at any time, so what follows takes a fresh one.
                abandon(read.property)
                read.property = takeProperty()
            } else {
                read.markedSecret = value.format == 8 && value.bytes.elementsEqual("secret".utf8)
            }
        }
    }

    /// Converts the snapshot's next target, or completes it when none is left.
    private func nextSnapshotTarget(_ read: PendingRead) {
        guard let gathering = read.snapshot else { return }
        if !gathering.remaining.isEmpty {
            return convert(read, target: gathering.remaining.removeFirst())
        }
        guard !gathering.formats.isEmpty else {
            let message = "the owner of \(read.selection) gave none of the formats it offers"
            return finish(read, .failure(.empty(message)), reuseProperty: true)
        }
        let snapshot = SelectionSnapshot(formats: gathering.formats, markedSecret: read.markedSecret)
        finish(read, nil, reuseProperty: true)
        completionsDue.append { gathering.completion(.success(snapshot)) }
    }

    /// Keeps one converted target of a snapshot read, then goes on to the next.
    private func keep(_ read: PendingRead, bytes: inout [UInt8], type: InternedAtom, format: Int32) {
        guard let gathering = read.snapshot else { return }
        if case .converting(let target) = read.stage, format == 8 || format == 32 {
            gathering.formats.append(
                SelectionSnapshot.Format(
                    target: target, type: type, format: format, data: WipingBuffer.taking(&bytes)))
            gathering.byteCount += gathering.formats[gathering.formats.count - 1].data.count
        } else {
            WipingBuffer.wipe(&bytes)
        }
        nextSnapshotTarget(read)
    }

    private func receivedConversion(_ read: PendingRead) {
        switch connection.readProperty(ownWindow, read.property, maxBytes: read.byteLimit, delete: true) {
        case .missing where read.snapshot != nil:
            nextSnapshotTarget(read)
        case .missing:
            let message = "the owner of \(read.selection) announced its contents but wrote none"
            finish(read, .failure(.empty(message)), reuseProperty: true)
        case .tooLarge(let byteCount):
            finish(read, .failure(tooLarge(read, atLeast: byteCount)), reuseProperty: true)
        case .value(let value) where value.type == atoms.incremental:
            // ICCCM §2.7.2: deleting the INCR property (done by the read) starts the
            // transfer; chunks arrive as new values of the property.
            let announced = Int(clamping: value.longs.first ?? 0)
            if announced > read.byteLimit {
                finish(read, .failure(tooLarge(read, atLeast: announced)), reuseProperty: false)
                return
            }
            if case .converting(let target) = read.stage { read.incrementalTarget = target }
            read.stage = .receivingIncrements
            selectionsToStart.append(read.selection)
        case .value(let value) where read.snapshot != nil:
            var bytes = value.bytes
            keep(read, bytes: &bytes, type: value.type, format: value.format)
        case .value(let value):
            var bytes = value.bytes
            deliver(read, bytes: &bytes, type: value.type)
        }
    }

    /// Converts received bytes of `type` to UTF-8 and completes the read.
    private func deliver(_ read: PendingRead, bytes: inout [UInt8], type: InternedAtom) {
        if read.snapshot != nil {
            // The end of an INCR transfer: its stage goes back to the target it converted.
            if case .receivingIncrements = read.stage, let target = read.incrementalTarget {
                read.stage = .converting(target: target)
            }
            return keep(read, bytes: &bytes, type: type, format: read.receivedFormat)
        }
        var text: [UInt8]?
        switch type {
        case atoms.string:
            text = TextEncoding.utf8(fromLatin1: bytes)
        case atoms.compoundText:
            text = connection.utf8(fromTextProperty: bytes, encoding: type).map(TextEncoding.repairingUTF8)
        default:
            // UTF8_STRING, text/plain;charset=utf-8, and owners that answer with another
            // type name: taken as UTF-8, with ill-formed sequences repaired (U+FFFD).
            text = TextEncoding.repairingUTF8(bytes)
        }
        if text != nil { WipingBuffer.wipe(&bytes) }
        guard let text else {
            finish(
                read, .failure(.empty("the contents of \(read.selection) could not be converted to UTF-8")),
                reuseProperty: true)
            return
        }
        if text.count > read.maxBytes {
            finish(read, .failure(tooLarge(read, atLeast: text.count)), reuseProperty: true)
            return
        }
        finish(
            read, .success(SelectionText(bytes: text, markedSecret: read.markedSecret)), reuseProperty: true)
    }

    private func tooLarge(_ read: PendingRead, atLeast byteCount: Int) -> SelectionReadError {
        .tooLarge("\(read.selection) holds \(byteCount) bytes or more, over the limit of \(read.maxBytes)")
    }

    /// Removes `read` and queues the start of the next read of its selection and the
    /// report of the result, both run by `pump()` (so that the completion may start reads).
    private func finish(
        _ read: PendingRead, _ result: Result<SelectionText, SelectionReadError>?, reuseProperty: Bool
    ) {
        guard reads.contains(where: { $0 === read }) else { return }
        reads.removeAll { $0 === read }
        WipingBuffer.wipe(&read.received)
        if reuseProperty {
            freeProperties.append(read.property)
        } else {
            abandon(read.property)
        }
        selectionsToStart.append(read.selection)
        if let result { completionsDue.append { read.completion(result) } }
    }

    /// Never reuses `property` until the pool is used up: its owner may still write.
    private func abandon(_ property: InternedAtom) {
        abandonedProperties.insert(property)
        abandonedOrder.append(property)
    }

    /// A property of our window that no outstanding read uses.
    private func takeProperty() -> InternedAtom {
        // Oldest first, so that a property freed a moment ago rests the longest.
        if !freeProperties.isEmpty { return freeProperties.removeFirst() }
        if propertiesMade < 2 * maximumPending {
            propertiesMade += 1
            return connection.internAtoms(["CLIPTAB_SELECTION_\(propertiesMade)"])[0]
        }
        // The pool is used up, and at most half of it is in use: the property abandoned
        // longest ago returns (emptied), its late owner long given up on.
        let property = abandonedOrder.removeFirst()
        abandonedProperties.remove(property)
        connection.deleteProperty(ownWindow, property)
        return property
    }
}
