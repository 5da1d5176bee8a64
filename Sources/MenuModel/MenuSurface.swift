// SPDX-License-Identifier: MIT

/// What a popup reports, in the menu's terms (its keys, the rows of its layout).
public enum MenuEvent: Equatable, Sendable {
    /// A key the menu acts on was pressed (or repeated).
    case key(MenuKey)
    /// The pointer moved over window row `row` of the layout (`MenuLayout.windowRow`), or
    /// outside the menu's box (nil).
    case pointer(row: Int?)
    /// Button `button` (1 left, 3 right, 4 and 5 the wheel) pressed over window row `row`,
    /// or outside the menu's box (nil).
    case button(Int, row: Int?)
    /// One wheel step: -1 up, 1 down.
    case scroll(Int)
    /// The popup must be drawn again.
    case redraw
    /// The popup was taken away (the compositor closed it): the menu ends.
    case closed
}

/// A popup the menu is shown on (the X11 window, the Wayland overlay): it opens, draws what
/// `MenuLayout` lays out, and reports input as `MenuEvent`s; `MenuFrontEnd` decides the rest.
public protocol MenuSurface: AnyObject {
    /// The lines of rows the popup shows (known once it is open, and again after a redraw).
    var visibleRows: Int { get }
    /// Milliseconds until the popup has something due (a held key's repeat, a deferred
    /// start), nil when nothing is.
    var wakeTimeout: Int32? { get }

    /// Opens the popup (not shown yet where it can wait), sized for a first level of
    /// `firstCount` lines.
    func open(firstCount: Int) throws
    /// Shows the popup once its first frame is drawn, holding the keyboard.
    func present() throws
    /// Draws `screen` with `prompt` on the first line (or `message` instead, when set).
    func draw(_ screen: MenuSession.Screen, prompt: String, message: String?) throws
    /// The oldest event not taken yet, nil when none is queued.
    func nextEvent() -> MenuEvent?
    /// The descriptor to poll for the popup's input, before a wait.
    func prepareToPoll() throws -> Int32
    /// Reads what came (when `readable`) after a wait.
    func finishPoll(readable: Bool) throws
    /// Gives the keyboard back and hides the popup, so that the focused window has it again
    /// before the daemon talks to other clients or pastes into it.
    func hide()
    /// Shows the popup again (for a message after `hide`).
    func reveal() throws
    /// Ends the popup: every way out passes here.
    func close()
}
