// SPDX-License-Identifier: MIT
import DBus

/// The exit statuses of the contract.
enum ExitStatus {
    /// Success.
    static let success: Int32 = 0
    /// The daemon refused (or a local file could not be read or written).
    static let failure: Int32 = 1
    /// The command line is wrong.
    static let usage: Int32 = 2
    /// The daemon cannot be reached, or did not answer in time (sysexits' `EX_UNAVAILABLE`).
    static let unavailable: Int32 = 69
}

/// Why a command did not succeed, and so what it prints on standard error and how it exits.
enum CLIFailure: Error {
    /// The daemon answered with an error: exit 1, its message and D-Bus error name.
    case refused(BusError)
    /// Something on this side failed (a file, standard input, a reply of the wrong type):
    /// exit 1 with this message.
    case local(String)
    /// The bus or the daemon cannot be reached or did not answer: exit 69 with this message,
    /// which says how to start the daemon.
    case unreachable(String)
    /// Standard output was closed by its reader: nothing more to say, exit 0.
    case outputClosed
    /// The command ran and reports failure with this message: exit 1.
    case reported(String)
    /// The user chose nothing (Escape in a launcher): exit 1 with this message, and no
    /// notification, since the user already knows.
    case cancelled(String)
    /// This desktop cannot do what was asked (a popup on GNOME Wayland): exit 69 with this
    /// message, which says what to use instead.
    case unsupported(String)

    /// The exit status.
    var exitStatus: Int32 {
        switch self {
        case .refused, .local, .reported, .cancelled: return ExitStatus.failure
        case .unreachable, .unsupported: return ExitStatus.unavailable
        case .outputClosed: return ExitStatus.success
        }
    }

    /// True when a `--notify` notification should show the failure: not for a closed
    /// output nor for a choice the user cancelled.
    var isNotified: Bool {
        switch self {
        case .outputClosed, .cancelled: return false
        case .refused, .local, .unreachable, .reported, .unsupported: return true
        }
    }

    /// The body of the failure's notification: the report without the program's name,
    /// trimmed of its final newline.
    var notificationBody: String {
        var text = Substring(report)
        if text.hasPrefix("cliptab: ") { text = text.dropFirst("cliptab: ".count) }
        while text.hasSuffix("\n") { text = text.dropLast() }
        return String(text)
    }

    /// The text for standard error (empty for none).
    var report: String {
        switch self {
        case .refused(let error): return "cliptab: \(error.message) (\(error.name))\n"
        case .local(let message), .reported(let message), .cancelled(let message), .unsupported(let message):
            return "cliptab: \(message)\n"
        case .unreachable(let message): return message
        case .outputClosed: return ""
        }
    }
}
