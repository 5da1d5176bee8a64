// SPDX-License-Identifier: MIT
import MenuModel
import Testing

@Suite struct MenuSessionTests {
    func rows() -> (MenuSession, ArraySource) {
        let source = ArraySource([["alpha", "beta"], ["gamma"]])
        let session = MenuSession()
        session.push(
            .list(
                .rows(table: "t"),
                MenuList(
                    content: TableContent(
                        source: source, outlines: source.outlines(headers: ["", "G"], footers: ["", ""])),
                    visibleRows: 5)))
        return (session, source)
    }

    @Test func enterChoosesTheRowAndTabAsksForItsActions() {
        let (session, _) = rows()
        #expect(session.handle(.down) == .none)
        let beta = MenuRow(table: "t", section: 0, row: 1, id: 2)
        #expect(session.handle(.enter) == .chooseRow(beta))
        #expect(session.handle(.tab) == .showActions(beta))
        #expect(session.handle(.right) == .showActions(beta))
        #expect(session.handle(.escape) == .close)
    }

    @Test func typingFiltersAndBackspaceUndoes() {
        let (session, _) = rows()
        _ = session.handle(.text("GAM"))
        #expect(session.handle(.enter) == .chooseRow(MenuRow(table: "t", section: 1, row: 0, id: 1_000_001)))
        _ = session.handle(.backspace)
        _ = session.handle(.backspace)
        _ = session.handle(.backspace)
        #expect(session.handle(.enter) == .chooseRow(MenuRow(table: "t", section: 0, row: 0, id: 1)))
    }

    @Test func actionsLevelPerformsMovesEditsAndInserts() {
        let (session, source) = rows()
        let alpha = MenuRow(table: "t", section: 0, row: 0, id: 1)
        session.push(
            .list(
                .actions(alpha),
                MenuList(content: ChoiceContent(["copy", "move", "edit", "insert"]), visibleRows: 5)))
        #expect(session.handle(.enter) == .perform(action: "copy", row: alpha))
        _ = session.handle(.down)
        #expect(session.handle(.enter) == .chooseDestination(alpha))
        _ = session.handle(.down)
        #expect(session.handle(.enter) == .startEdit(alpha))
        _ = session.handle(.down)
        #expect(session.handle(.enter) == .none)
        // insert asks for the text in the same widget.
        _ = session.handle(.text("new"))
        _ = session.handle(.left)
        _ = session.handle(.text("X"))
        #expect(session.handle(.enter) == .insert(alpha, "neXw"))
        session.pop()
        session.pop()
        // move: the destination list ends each section with its end.
        session.push(
            .list(
                .destination(alpha),
                MenuList(
                    content: TableContent(
                        source: source, outlines: source.outlines(headers: ["", "G"], footers: ["", ""]),
                        endItems: true),
                    visibleRows: 10)))
        _ = session.handle(.down)
        #expect(session.handle(.enter) == .move(alpha, toSection: 0, toRow: 1))
        _ = session.handle(.down)
        // The end of the row's own section is one less once it has left.
        #expect(session.handle(.enter) == .move(alpha, toSection: 0, toRow: 1))
        _ = session.handle(.end)
        #expect(session.handle(.enter) == .move(alpha, toSection: 1, toRow: 1))
        _ = session.handle(.up)
        #expect(session.handle(.enter) == .move(alpha, toSection: 1, toRow: 0))
    }

    @Test func leftGoesBackAndEditStartsWithTheText() {
        let (session, _) = rows()
        let alpha = MenuRow(table: "t", section: 0, row: 0, id: 1)
        session.push(.list(.actions(alpha), MenuList(content: ChoiceContent(["copy"]), visibleRows: 5)))
        #expect(session.screens.count == 2)
        _ = session.handle(.left)
        #expect(session.screens.count == 1)
        _ = session.handle(.left)
        #expect(session.screens.count == 1)
        session.push(.input(.edit(alpha), LineEditor("old")))
        _ = session.handle(.backspace)
        _ = session.handle(.home)
        _ = session.handle(.delete)
        #expect(session.handle(.enter) == .setText(alpha, "l"))
    }

    @Test func tablesLevelOpensTheChosenTable() {
        let session = MenuSession()
        session.push(.list(.tables, MenuList(content: ChoiceContent(["notes", "snippets"]), visibleRows: 5)))
        _ = session.handle(.text("snip"))
        #expect(session.handle(.enter) == .openTable("snippets"))
    }

    @Test func lineEditorMovesByCharacters() {
        var editor = LineEditor("añ🎉")
        editor.left()
        editor.deleteBackward()
        #expect(editor.text == "a🎉" && editor.beforeCaret == "a")
        editor.end()
        editor.insert("é")
        #expect(editor.text == "a🎉é")
    }
}

/// The lines of a row's actions menu: `sequence` goes where `copy` is allowed.
@Suite struct RowActionsTests {
    @Test func sequenceFollowsCopyOnly() {
        #expect(
            RowActions.lines(allowed: ["copy", "cut", "delete"]) == [
                "copy", "sequence", "fill", "cut", "delete",
            ])
        #expect(RowActions.lines(allowed: ["paste", "delete"]) == ["paste", "delete"])
        #expect(RowActions.lines(allowed: []) == [])
    }
}
