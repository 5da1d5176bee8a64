// SPDX-License-Identifier: MIT

/// The atoms the service uses, interned once in one round trip.
struct KnownAtoms {
    /// `CLIPBOARD`.
    let clipboard: InternedAtom
    /// `PRIMARY`.
    let primary: InternedAtom
    /// `TARGETS`: the list of targets an owner offers.
    let targets: InternedAtom
    /// `TIMESTAMP`: the time the owner acquired the selection.
    let timestamp: InternedAtom
    /// `MULTIPLE`: several conversions in one request.
    let multiple: InternedAtom
    /// `ATOM_PAIR`: the type of a MULTIPLE parameter list.
    let atomPair: InternedAtom
    /// `UTF8_STRING`.
    let utf8String: InternedAtom
    /// `STRING` (ISO 8859-1).
    let string: InternedAtom
    /// `TEXT`: answered as STRING or COMPOUND_TEXT.
    let text: InternedAtom
    /// `COMPOUND_TEXT`.
    let compoundText: InternedAtom
    /// `text/plain;charset=utf-8`.
    let plainTextUTF8: InternedAtom
    /// `text/plain` (US-ASCII).
    let plainText: InternedAtom
    /// `x-kde-passwordManagerHint`: `secret` keeps a copy out of clipboard histories.
    let passwordManagerHint: InternedAtom
    /// `SAVE_TARGETS`: the clipboard manager hand-over.
    let saveTargets: InternedAtom
    /// `CLIPBOARD_MANAGER`: the selection a clipboard manager owns.
    let clipboardManager: InternedAtom
    /// `INCR`: the type announcing an incremental transfer.
    let incremental: InternedAtom
    /// `NULL`: the type of a side-effect target's empty reply.
    let null: InternedAtom
    /// `ATOM`.
    let atom: InternedAtom
    /// `INTEGER`.
    let integer: InternedAtom
    /// The property on our window whose zero-length appends yield server timestamps.
    let timestampProperty: InternedAtom
    /// The property on our window that lists the targets a clipboard manager should save.
    let saveTargetsProperty: InternedAtom
    /// `DELETE`, `INSERT_SELECTION`, `INSERT_PROPERTY`, `LENGTH`: targets whose conversion
    /// acts or describes instead of giving content, never read for a snapshot.
    let sideEffectTargets: [InternedAtom]
    /// The root's property where a window manager names the active client window.
    let netActiveWindow: InternedAtom
    /// The type of a window id property.
    let window: InternedAtom

    /// Interns every atom in one round trip.
    init(connection: DisplayConnection) {
        let names = [
            "CLIPBOARD", "PRIMARY", "TARGETS", "TIMESTAMP", "MULTIPLE", "ATOM_PAIR", "UTF8_STRING",
            "STRING", "TEXT", "COMPOUND_TEXT", "text/plain;charset=utf-8", "text/plain",
            "x-kde-passwordManagerHint", "SAVE_TARGETS", "CLIPBOARD_MANAGER", "INCR", "NULL", "ATOM",
            "INTEGER", "CLIPTAB_TIMESTAMP", "CLIPTAB_SAVE_TARGETS", "DELETE", "INSERT_SELECTION",
            "INSERT_PROPERTY", "LENGTH", "_NET_ACTIVE_WINDOW", "WINDOW",
        ]
        let atoms = connection.internAtoms(names)
        clipboard = atoms[0]
        primary = atoms[1]
        targets = atoms[2]
        timestamp = atoms[3]
        multiple = atoms[4]
        atomPair = atoms[5]
        utf8String = atoms[6]
        string = atoms[7]
        text = atoms[8]
        compoundText = atoms[9]
        plainTextUTF8 = atoms[10]
        plainText = atoms[11]
        passwordManagerHint = atoms[12]
        saveTargets = atoms[13]
        clipboardManager = atoms[14]
        incremental = atoms[15]
        null = atoms[16]
        atom = atoms[17]
        integer = atoms[18]
        timestampProperty = atoms[19]
        saveTargetsProperty = atoms[20]
        sideEffectTargets = Array(atoms[21...24])
        netActiveWindow = atoms[25]
        window = atoms[26]
    }

    /// The atom of `selection`.
    func atom(for selection: SelectionName) -> InternedAtom {
        switch selection {
        case .clipboard: return clipboard
        case .primary: return primary
        }
    }

    /// The selection named by `atom`, if it is one of ours.
    func selection(for atom: InternedAtom) -> SelectionName? {
        switch atom {
        case clipboard: return .clipboard
        case primary: return .primary
        default: return nil
        }
    }
}
