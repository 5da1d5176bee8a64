// SPDX-License-Identifier: MIT
internal import CFontconfig

/// Every character some scalable installed font has, for both popups' renderers: a
/// character outside it needs no search through the fonts, which finds nothing.
///
/// The union of the fonts' character sets is read from fontconfig's cache (one list, no font
/// opened) when first asked for, then kept. Owns the union (`FcCharSet`), destroyed in
/// `deinit`.
public final class InstalledCharacters {
    private var union: OpaquePointer?
    private var looked = false

    /// A set that is read when first asked.
    public init() {}

    deinit {
        if let union { FcCharSetDestroy(union) }
    }

    /// Whether some scalable installed font has `scalar` (true when fontconfig cannot list
    /// the fonts: nothing is ruled out then).
    public func contains(_ scalar: Unicode.Scalar) -> Bool {
        if !looked {
            looked = true
            union = Self.read()
        }
        guard let union else { return true }
        return FcCharSetHasChar(union, scalar.value) != 0
    }

    /// The union of the character sets of every scalable installed font; nil when
    /// fontconfig cannot list them.
    ///
    /// The corresponding C function is `FcFontList`.
    private static func read() -> OpaquePointer? {
        guard let pattern = FcPatternCreate(), let objects = FcObjectSetCreate() else { return nil }
        defer {
            FcObjectSetDestroy(objects)
            FcPatternDestroy(pattern)
        }
        FcPatternAddBool(pattern, FC_SCALABLE, 1)
        FcObjectSetAdd(objects, FC_CHARSET)
        guard let list = FcFontList(nil, pattern, objects), let union = FcCharSetCreate() else { return nil }
        defer { FcFontSetDestroy(list) }
        for index in 0..<Int(list.pointee.nfont) {
            var characters: OpaquePointer?
            if let font = list.pointee.fonts[index],
                FcPatternGetCharSet(font, FC_CHARSET, 0, &characters) == FcResultMatch, let characters
            {
                var changed: FcBool = 0
                FcCharSetMerge(union, characters, &changed)
            }
        }
        return union
    }
}
