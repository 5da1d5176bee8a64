// SPDX-License-Identifier: MIT
import Glibc
import MenuModel
import Testing

@Suite struct MenuSettingsTests {
    /// The repository's file at `path`.
    func repositoryText(_ path: String) -> String {
        var root = #filePath
        for _ in 0..<3 { root = String(root[..<root.lastIndex(of: "/")!]) }
        guard let file = fopen(root + "/" + path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func readsOnlyTheMenuSection() {
        let (settings, problems) = MenuSettings.parse(
            """
            [clipboard]
            font = not ours
            [menu]
            ; a comment
            font = "DejaVu Sans Mono:size=14 "
            rows = 30
            background=#000000
            enter = copy
            [table "x"]
            rows = 2
            """, file: "c.conf")
        #expect(problems == [])
        var expected = MenuSettings()
        expected.font = "DejaVu Sans Mono:size=14 "
        expected.rows = 30
        expected.background = MenuColor(0x000000)
        expected.enter = "copy"
        #expect(settings == expected)
    }

    /// The file is read as the daemon reads it: a comment after the header, CRLF line ends,
    /// quotes that keep a `#`. (The popup once ignored a `[menu]  # popup` section.)
    @Test func readsTheSyntaxTheDaemonReads() {
        let (settings, problems) = MenuSettings.parse(
            "[menu]  # popup\r\nrows = \"30\"\r\nfont = \"Mono # 2\"\r\n[menu \"x\"]\r\nrows = 2\r\n",
            file: "c.conf")
        #expect(problems == [])
        var expected = MenuSettings()
        expected.rows = 30
        expected.font = "Mono # 2"
        #expect(settings == expected)
    }

    @Test func badValuesKeepTheDefaultAndSayWhere() {
        let (settings, problems) = MenuSettings.parse(
            "[menu]\nrows = 0\nwidth = wide\nenter = type\ncolour = red\n", file: "c.conf")
        #expect(settings == MenuSettings())
        #expect(
            problems == [
                "c.conf:2: rows must be a whole number from 1 to 200, not \"0\"",
                "c.conf:3: width must be a whole number from 1 to 200, not \"wide\"",
                "c.conf:4: enter must be paste or copy, not \"type\"",
                "c.conf:5: unknown key \"colour\" in [menu] (known: font, rows, width, background, foreground, "
                    + "title, selected_background, selected_foreground, enter)",
            ])
    }

    /// The shipped example sets every key of [menu], each to its default.
    @Test func shippedExampleIsTheDefaults() {
        let text = repositoryText("config/cliptab.conf")
        let (settings, problems) = MenuSettings.parse(text, file: "cliptab.conf")
        #expect(problems == [])
        #expect(settings == MenuSettings())
        for key in MenuSettings.keys { #expect(text.contains("\n\(key) = "), "\(key)") }
    }
}
