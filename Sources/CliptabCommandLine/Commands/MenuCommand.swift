// SPDX-License-Identifier: MIT
import CliptabContract
import Glibc
import Posix

/// `cliptab menu [TABLE]`: the desktop popup, drawn by `cliptab-menu` or, in a Wayland
/// session, `cliptab-menu-wayland`.
struct MenuCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "menu", abstract: "the popup menu at the pointer: choose a row, paste or copy it, or act on it",
        discussion: """
            Shows the table's sections and rows in a popup at the mouse pointer (with no TABLE,
            the tables first). Type to filter (ignoring case; sections with no matching row
            disappear), move with the arrows, Page Up/Down, Home and End, or the mouse. Enter
            pastes the row into the window that had the focus (or copies it, when [menu] enter
            = copy in cliptab.conf, or when cliptabd cannot paste); Right or Tab opens the
            row's actions (copy, cut, paste, delete, move, edit, insert, as the table allows);
            Left goes back; Escape or a click outside closes it and changes nothing (exit 1).
            Colours, font and size are set in the [menu] section of cliptab.conf. The popup is
            the separate program cliptab-menu (cliptab-menu-wayland in a Wayland session),
            installed beside cliptab, so cliptab itself needs no X11 or Wayland libraries.
            --filter opens it with that text already typed (as the desktop's search does when
            its cliptab icon is clicked).
            """,
        arguments: [ArgumentSpec("TABLE", .optional, help: "the table to show", completion: .table)],
        options: [.value("--filter", "TEXT", help: "open with TEXT typed into the filter")])

    private let table: String?
    private let filter: String?

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {
        table = arguments.optionalArgument("TABLE")
        filter = arguments.value("--filter")
    }

    /// Replaces this process with the session's popup program (`MenuProgram`), found beside
    /// this executable or on `PATH`.
    func run(_ context: CommandContext) throws {
        let waylandDisplay = getenv("WAYLAND_DISPLAY").map { String(cString: $0) }
        // GNOME Wayland gives no popup the keyboard: said here, where --notify can show it
        // (cliptab-menu-wayland also refuses any other compositor without layer-shell).
        if Self.isGnomeWayland(
            waylandDisplay: waylandDisplay,
            currentDesktop: getenv("XDG_CURRENT_DESKTOP").map { String(cString: $0) })
        {
            throw CLIFailure.unsupported(MenuRefusal.message)
        }
        var arguments = ["--timeout", String(context.options.timeoutMilliseconds)]
        if let filter { arguments += ["--filter", filter] }
        if let table { arguments += ["--", table] }
        try context.output.flush()
        let failure = ProgramImage.replace(
            with: MenuProgram.forSession(waylandDisplay: waylandDisplay), arguments: arguments)
        throw CLIFailure.local(failure + "; install it beside cliptab (.ci/install does)")
    }

    /// Whether the session is GNOME on Wayland: `WAYLAND_DISPLAY` is set and one of the
    /// colon-separated names of `XDG_CURRENT_DESKTOP` is GNOME.
    static func isGnomeWayland(waylandDisplay: String?, currentDesktop: String?) -> Bool {
        guard let waylandDisplay, !waylandDisplay.isEmpty, let currentDesktop else { return false }
        return currentDesktop.split(separator: ":").contains { $0.uppercased() == "GNOME" }
    }
}
