// SPDX-License-Identifier: MIT

/// A selection this client owns: the text, whether it is a secret, and the server time at
/// which ownership was acquired (ICCCM §2.1: needed for TIMESTAMP, for refusing older
/// requests, for ignoring stale SelectionClear events and for releasing it).
struct Ownership {
    /// The UTF-8 text.
    let text: WipingBuffer
    /// True for passwords: adds the password-manager hint, never handed to a manager.
    let secret: Bool
    /// The acquisition timestamp.
    let time: ServerTime
    /// Which selection.
    let selection: SelectionName
    /// The text's other encodings, converted once and shared by every request.
    let forms = ConvertedForms()

    /// The targets to list in a TARGETS reply (ICCCM §2.6.2: every target, including
    /// TARGETS, MULTIPLE and TIMESTAMP).
    func targets(_ atoms: KnownAtoms) -> [InternedAtom] {
        var list = [
            atoms.targets, atoms.timestamp, atoms.multiple, atoms.utf8String, atoms.plainTextUTF8,
            atoms.plainText, atoms.string, atoms.text, atoms.compoundText,
        ]
        if secret {
            list.append(atoms.passwordManagerHint)
        } else if selection == .clipboard {
            // Listed only when a hand-over to a clipboard manager may happen; never for secrets.
            list.append(atoms.saveTargets)
        }
        return list
    }

    /// The targets a clipboard manager should save: the text targets, not the side-effect
    /// and meta targets.
    static func savedTargets(_ atoms: KnownAtoms) -> [InternedAtom] {
        [atoms.utf8String, atoms.plainTextUTF8, atoms.string, atoms.compoundText]
    }

    /// The reply for `target` (MULTIPLE excluded), or nil to refuse it.
    func reply(to target: InternedAtom, atoms: KnownAtoms, connection: DisplayConnection) -> Reply? {
        switch target {
        case atoms.targets:
            return .longs(type: atoms.atom, targets(atoms).map(\.rawValue))
        case atoms.timestamp:
            return .longs(type: atoms.integer, [time.rawValue])
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
        case atoms.passwordManagerHint where secret:
            return .bytes(type: target, WipingBuffer.copying(Array("secret".utf8)))
        case atoms.saveTargets where !secret && selection == .clipboard:
            // A side-effect target: an empty reply of type NULL (clipboard manager spec).
            return .longs(type: atoms.null, [])
        default:
            return nil
        }
    }
}
