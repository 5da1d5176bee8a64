// SPDX-License-Identifier: MIT
import Foundation
import KeyChords
import Testing

/// Chords read by X keysym name, and the rule that keeps the daemon's service and
/// configuration free of any display's library.
struct KeyChordTests {
    @Test func readsModifiersAndKeysymNames() throws {
        let chord = try KeyChord(parsing: " Ctrl + shift+V ")
        // Control_L, Shift_L; a letter names its key, lower case.
        #expect(chord.modifiers == [0xffe3, 0xffe1] && chord.key == 0x76)
        #expect(chord.description == "ctrl+shift+v")
        #expect(try KeyChord(parsing: "shift+Insert").key == 0xff63)
        #expect(try KeyChord(parsing: "alt+super+Left").modifiers == [0xffe9, 0xffeb])
        #expect(try KeyChord(parsing: "ctrl+control+v").modifiers == [0xffe3])
    }

    @Test(arguments: ["", "ctrl+", "+v", "hyper+v", "ctrl+NoSuchKey"])
    func refusesWithTheReason(text: String) {
        #expect(throws: KeyChord.ParseError.self) { try KeyChord(parsing: text) }
    }

    /// No file of the daemon's service or configuration imports an X11 or Wayland module:
    /// they read chords and talk to the backends through ports only.
    @Test func serviceAndConfigImportNoDisplayLibrary() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let displayModules: Set<String> = ["X11Desktop", "WaylandDesktop", "CX11", "CWayland", "CXft"]
        var checked = 0
        for folder in ["Service", "Config"] {
            let directory = root.appendingPathComponent("Sources/CliptabDaemon/\(folder)")
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
            where name.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                let imports = text.split(separator: "\n").compactMap { line -> String? in
                    let words = line.split(separator: " ").map(String.init)
                    guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { return nil }
                    return words[at + 1]
                }
                #expect(Set(imports).isDisjoint(with: displayModules), "\(folder)/\(name) imports \(imports)")
                checked += 1
            }
        }
        #expect(checked > 20)
    }
}
