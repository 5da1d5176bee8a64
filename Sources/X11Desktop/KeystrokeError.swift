// SPDX-License-Identifier: MIT

/// Why the paste keystroke could not be sent.
public enum KeystrokeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The X server lacks the XTEST extension, the only way to send real key events.
    case noExtension(display: String)
    /// No key of the current keyboard map produces the keysym.
    case unmappedKey(String)
    /// The connection to the X server was lost.
    case connectionLost(display: String)

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .noExtension(let display):
            return "the X server of display \(display) lacks the XTEST extension, so no keystroke can be sent"
                + " (Xvfb: leave out -extension XTEST)"
        case .unmappedKey(let name):
            return "no key of the keyboard map types \(name); add a layout that has it (setxkbmap)"
        case .connectionLost(let display):
            return "the connection to X display \(display) was lost"
        }
    }
}
