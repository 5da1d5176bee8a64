// SPDX-License-Identifier: MIT
import PopupText
import Testing

/// The settings' fontconfig names select the same family and size in pango.
@Suite struct FontNameTests {
    @Test func fontconfigNamesBecomePangoDescriptions() {
        #expect(FontName.pangoDescription("monospace:size=11") == "monospace 11")
        #expect(FontName.pangoDescription("DejaVu Sans Mono-12") == "DejaVu Sans Mono 12")
        #expect(FontName.pangoDescription("Noto Sans:pixelsize=16") == "Noto Sans 12")
        #expect(FontName.pangoDescription("") == "monospace 11")
    }

    /// A cut walks only the characters it keeps.
    @Test func cutsKeepAPrefix() {
        #expect(TextCut.prefix("héllo", characters: 2) == ("hé", true))
        #expect(TextCut.prefix("hé", characters: 5) == ("hé", false))
    }
}
