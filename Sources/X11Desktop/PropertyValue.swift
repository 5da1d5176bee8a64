// SPDX-License-Identifier: MIT

/// A window property's value, as Xlib returns it in memory.
struct PropertyValue {
    /// The property's type atom.
    let type: InternedAtom
    /// 8, 16 or 32.
    let format: Int32
    /// The items as Xlib lays them out: format 32 items are C `long`s (8 bytes on LP64).
    let bytes: [UInt8]
    /// The number of items.
    let itemCount: Int

    /// The items of a format-32 property (atoms, integers), empty for other formats.
    var longs: [UInt] {
        guard format == 32 else { return [] }
        return bytes.withUnsafeBytes { raw in
            (0..<itemCount).map {
                raw.loadUnaligned(fromByteOffset: $0 * MemoryLayout<UInt>.size, as: UInt.self)
            }
        }
    }

    /// The items of a format-32 property read as atoms (a TARGETS list, MULTIPLE pairs).
    var atoms: [InternedAtom] { longs.map(InternedAtom.init(rawValue:)) }
}
