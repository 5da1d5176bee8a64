// SPDX-License-Identifier: MIT
import CliptabCore
import TableFile
import TestSupport
import Testing

/// The table file's schema: the issue's example, the export forms, the errors at their
/// line and column, and every hostile text through a whole document.
@Suite struct TableFileCodecTests {
    private let codec = TableFileCodec()

    private func failure(_ text: String) -> String? {
        do {
            _ = try codec.decode(text)
            return nil
        } catch let error as CliptabError {
            #expect(error.code == .invalidArgument)
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func theIssuesExampleReads() throws {
        let text = """
            # Comments are allowed anywhere.
            templates: true          # optional: the table's templates flag
            actions: [copy, paste, delete, move, edit, insert, cut]   # optional: the allowed actions
            sections:
              - header: Signatures   # optional; absent means no header
                footer: end of list  # optional
                rows:
                  - name: sig        # optional row name (the API-2 rules)
                    text: |-
                      Best regards,
                      Ada Lovelace
                  - ada@example.com  # a plain string is a row without a name
              - header: Shell
                rows:
                  - git log --oneline --graph

            """
        let document = try codec.decode(text)
        #expect(document.templates == true)
        #expect(document.actions == .all)
        #expect(
            document.sections == [
                DocumentSection(
                    header: "Signatures", footer: "end of list",
                    rows: [
                        DocumentRow(name: "sig", text: "Best regards,\nAda Lovelace"),
                        DocumentRow(text: "ada@example.com"),
                    ]),
                DocumentSection(header: "Shell", rows: [DocumentRow(text: "git log --oneline --graph")]),
            ])
    }

    @Test func exportFormsAreTheShortOnes() throws {
        #expect(try codec.encode(TableDocument()) == "sections: []\n")
        let one = TableDocument(sections: [
            DocumentSection(rows: [DocumentRow(text: "no"), DocumentRow(name: "sig", text: "a\nb")])
        ])
        #expect(try codec.encode(one) == "rows:\n- no\n- name: sig\n  text: |-\n    a\n    b\n")
        #expect(try codec.decode(try codec.encode(one)) == one)
        #expect(try codec.decode("rows: []\n") == TableDocument(sections: [DocumentSection()]))
    }

    @Test func settingsAreWrittenOnlyWhenNotTheDefault() throws {
        let document = TableDocument(templates: true, actions: ActionSet([.copy, .paste]), sections: [])
        let text = try codec.encode(document)
        #expect(text == "templates: true\nactions: [copy, paste]\nsections: []\n")
        #expect(try codec.decode(text) == document)
    }

    @Test(arguments: [
        ("", "line 1, column 1: the file holds no document"),
        ("rows: [a]\nsections: []\n", "not both"),
        ("templates: yes\nrows: []\n", "line 1, column 12: templates is true or false"),
        (
            "rows:\n  - name: a\n    txt: b\n",
            "line 3, column 5: unknown key \"txt\" in a row; the keys are name, text"
        ),
        ("rows:\n  - name: a\n", "line 2, column 5: this row has no \"text\""),
        ("rows:\n  - {name: 9a, text: b}\n", "line 2, column 12: \"9a\" is not a row name"),
        (
            "rows:\n  - {name: a, text: x}\n  - {name: a, text: y}\n",
            "line 3, column 12: the row name \"a\" is used twice (first at line 2, column 12)"
        ),
        ("sections:\n  - header: [x]\n", "line 2, column 13: a header is a string, not a list"),
        ("colour: red\n", "line 1, column 1: unknown key \"colour\" in a table file"),
        ("- a\n", "line 1, column 1: a table file is a mapping"),
        ("actions: [copy, fly]\nrows: []\n", "line 1, column 17: unknown action \"fly\""),
        ("rows:\n  - a\n b\n", "line 3, column"),
    ])
    func errorsNameTheirPlace(text: String, expected: String) throws {
        let message = try #require(failure(text))
        #expect(message.contains(expected), "\(message)")
    }

    @Test func everyHostileTextRoundTripsInADocument() throws {
        var document = TableDocument(sections: [
            DocumentSection(
                header: "h", footer: "f", rows: HostileTexts.catalogue.map { DocumentRow(text: $0.text) }),
            DocumentSection(
                header: "  spaced\nheader ", footer: "#",
                rows: HostileTexts.catalogue.enumerated().map {
                    DocumentRow(name: "n\($0.offset)", text: $0.element.text)
                }),
        ])
        document.templates = false
        let text = try codec.encode(document)
        #expect(try codec.decode(text) == document, "\(text)")
    }
}
