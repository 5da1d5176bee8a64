// SPDX-License-Identifier: MIT

/// Everything another program offered for a selection, read target by target so that it
/// can be served again later exactly as it was: an image, a file list, HTML beside the
/// plain text.
///
/// Atoms stay interned for the server's life, so a snapshot taken on one connection is
/// served on a later connection to the same server. The bytes live in `WipingBuffer`s:
/// a snapshot may hold a password.
public struct SelectionSnapshot {
    /// One target as its owner answered it.
    struct Format {
        /// The target asked for (`image/png`, `UTF8_STRING`, `text/uri-list`...).
        let target: InternedAtom
        /// The property type the owner answered with.
        let type: InternedAtom
        /// 8 or 32 (16-bit formats are not kept: no common target uses them).
        let format: Int32
        /// The items as Xlib lays them out (format 32: C `long`s).
        let data: WipingBuffer
    }

    /// The formats, in the order the owner listed them.
    let formats: [Format]
    /// True when the owner offered the password-manager hint `secret`.
    public let markedSecret: Bool

    /// The number of formats kept.
    public var formatCount: Int { formats.count }

    /// The bytes kept, all formats together.
    public var byteCount: Int { formats.reduce(0) { $0 + $1.data.count } }

    /// The format served for `target`, if the snapshot has it.
    func format(for target: InternedAtom) -> Format? {
        formats.first { $0.target == target }
    }

    /// The items of a format-32 entry as C `long`s.
    static func longs(of format: Format) -> [UInt] {
        format.data.withBytes { raw in
            (0..<raw.count / MemoryLayout<UInt>.size).map {
                raw.loadUnaligned(fromByteOffset: $0 * MemoryLayout<UInt>.size, as: UInt.self)
            }
        }
    }
}
