// SPDX-License-Identifier: MIT

/// A selection this client owns: the text (or another program's formats, put back), whether
/// it is a secret, and the server time at which ownership was acquired (ICCCM §2.1: needed
/// for TIMESTAMP, for refusing older requests, for ignoring stale SelectionClear events and
/// for releasing it).
struct Ownership {
    /// The UTF-8 text; for a snapshot, its UTF-8 form when it has one, else empty.
    let text: WipingBuffer
    /// The formats served instead of the text's forms, when another program's content was
    /// put back.
    let snapshot: SelectionSnapshot?
    /// True for passwords: adds the password-manager hint, never handed to a manager.
    let secret: Bool
    /// The acquisition timestamp.
    let time: ServerTime
    /// Which selection.
    let selection: SelectionName
    /// The text's other encodings, converted once and shared by every request.
    let forms = ConvertedForms()

    /// Owns `text`.
    init(text: WipingBuffer, secret: Bool, time: ServerTime, selection: SelectionName) {
        self.text = text
        snapshot = nil
        self.secret = secret
        self.time = time
        self.selection = selection
    }

    /// Owns another program's formats; `atoms` finds their UTF-8 text, for reads of our own
    /// selection.
    init(
        snapshot: SelectionSnapshot, secret: Bool, time: ServerTime, selection: SelectionName,
        atoms: KnownAtoms
    ) {
        let utf8 = [atoms.utf8String, atoms.plainTextUTF8].lazy.compactMap(snapshot.format(for:)).first {
            $0.format == 8
        }
        text = utf8?.data ?? WipingBuffer.copying([])
        self.snapshot = snapshot
        self.secret = secret
        self.time = time
        self.selection = selection
    }

    /// The text a read of our own selection answers: nil for a snapshot without UTF-8 text.
    var readableText: WipingBuffer? {
        guard let snapshot else { return text }
        return snapshot.formats.contains { $0.data === text } ? text : nil
    }

    /// The content targets: the text's forms, or the snapshot's formats.
    func contentTargets(_ atoms: KnownAtoms) -> [InternedAtom] {
        guard let snapshot else {
            return [
                atoms.utf8String, atoms.plainTextUTF8, atoms.plainText, atoms.string, atoms.text,
                atoms.compoundText,
            ]
        }
        return snapshot.formats.map(\.target)
    }

    /// The targets to list in a TARGETS reply (ICCCM §2.6.2: every target, including
    /// TARGETS, MULTIPLE and TIMESTAMP).
    func targets(_ atoms: KnownAtoms) -> [InternedAtom] {
        var list = [atoms.targets, atoms.timestamp, atoms.multiple] + contentTargets(atoms)
        if secret {
            list.append(atoms.passwordManagerHint)
        } else if selection == .clipboard {
            // Listed only when a hand-over to a clipboard manager may happen; never for secrets.
            list.append(atoms.saveTargets)
        }
        return list
    }

    /// The targets a clipboard manager should save: the text targets (or the snapshot's),
    /// not the side-effect and meta targets.
    func savedTargets(_ atoms: KnownAtoms) -> [InternedAtom] {
        guard let snapshot else {
            return [atoms.utf8String, atoms.plainTextUTF8, atoms.string, atoms.compoundText]
        }
        return snapshot.formats.map(\.target)
    }

    /// The reply for `target` (MULTIPLE excluded), or nil to refuse it.
    func reply(to target: InternedAtom, atoms: KnownAtoms, connection: DisplayConnection) -> Reply? {
        switch target {
        case atoms.targets:
            return .longs(type: atoms.atom, targets(atoms).map(\.rawValue))
        case atoms.timestamp:
            return .longs(type: atoms.integer, [time.rawValue])
        case atoms.passwordManagerHint where secret:
            return .bytes(type: target, WipingBuffer.copying(Array("secret".utf8)))
        case atoms.saveTargets where !secret && selection == .clipboard:
            // A side-effect target: an empty reply of type NULL (clipboard manager spec).
            return .longs(type: atoms.null, [])
        default:
            break
        }
        guard let snapshot else { return textReply(to: target, atoms: atoms, connection: connection) }
        guard let format = snapshot.format(for: target) else { return nil }
        if format.format == 32 { return .longs(type: format.type, SelectionSnapshot.longs(of: format)) }
        return .bytes(type: format.type, format.data)
    }

    /// The reply for a text target, converted from the UTF-8 text, or nil.
    private func textReply(to target: InternedAtom, atoms: KnownAtoms, connection: DisplayConnection)
        -> Reply?
    {
        switch target {
        case atoms.utf8String, atoms.plainTextUTF8:
            return .bytes(type: target, text)
        case atoms.plainText:
            return .bytes(type: target, forms.ascii(of: text))
        case atoms.string:
            return .bytes(type: atoms.string, forms.latin1(of: text).buffer)
        case atoms.text:
            // ICCCM: TEXT is answered in a real encoding, STRING when it can hold the text.
            let latin1 = forms.latin1(of: text)
            if latin1.lossless { return .bytes(type: atoms.string, latin1.buffer) }
            return .bytes(type: atoms.compoundText, forms.compoundText(of: text, connection: connection))
        case atoms.compoundText:
            return .bytes(type: atoms.compoundText, forms.compoundText(of: text, connection: connection))
        default:
            return nil
        }
    }
}
