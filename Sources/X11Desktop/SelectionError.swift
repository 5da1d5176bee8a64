// SPDX-License-Identifier: MIT

/// Why connecting or taking ownership failed.
///
/// The description says what to do about it.
public enum SelectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No display name was given and `DISPLAY` is unset or empty.
    case noDisplay
    /// The X server named `display` could not be reached.
    case cannotConnect(display: String)
    /// The connection to the X server was lost; the service cannot be used again.
    case connectionLost(display: String)
    /// The X server named `display` accepted the connection but did not answer within
    /// `milliseconds` (stopped, or a network display gone quiet); tried again later.
    case notAnswering(display: String, milliseconds: Int)
    /// The server did not report a timestamp within the bound (it did not answer).
    case noTimestamp(milliseconds: Int)
    /// `XSetSelectionOwner` did not make this client the owner.
    case notOwner(SelectionName)
    /// The text to own is not valid UTF-8.
    case invalidText

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .noDisplay:
            return "no X display: DISPLAY is not set (start from an X session or set DISPLAY)"
        case .cannotConnect(let display):
            return "cannot connect to X display \(display) (is the X server running, and is access allowed?)"
        case .connectionLost(let display):
            return "the connection to X display \(display) was lost; restart to use the new X server"
        case .notAnswering(let display, let milliseconds):
            return "the X server of display \(display) did not answer within \(milliseconds) ms"
                + " (is it stopped or unreachable?); cliptabd tries again later"
        case .noTimestamp(let milliseconds):
            return "the X server did not answer within \(milliseconds) ms; the selection was not taken"
        case .notOwner(let selection):
            return "the X server did not make this program the owner of \(selection)"
                + " (another program took it at the same moment); try again"
        case .invalidText:
            return "the text is not valid UTF-8"
        }
    }
}
