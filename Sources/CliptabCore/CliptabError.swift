// SPDX-License-Identifier: MIT
import Quoting

/// An error of the cliptab contract: a kind whose name is fixed by the D-Bus API, and a
/// message that tells a person what was wrong and what would be right.
public struct CliptabError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kinds of error of the contract; the raw value is the D-Bus error name's last part.
    public enum Code: String, CaseIterable, Sendable {
        /// The named table does not exist.
        case noSuchTable = "NoSuchTable"
        /// A create or rename onto an existing name.
        case tableExists = "TableExists"
        /// A name that is empty, too long, or holds a control character or `/`.
        case invalidName = "InvalidName"
        /// `FindSection` found no section with that header.
        case noSuchSection = "NoSuchSection"
        /// `Locate` of an unknown row id.
        case noSuchRow = "NoSuchRow"
        /// An index outside the valid range.
        case indexOutOfRange = "IndexOutOfRange"
        /// A bad operator, pattern, format, action name or duplicate batch index.
        case invalidArgument = "InvalidArgument"
        /// The action is not in the table's allowed set.
        case notPermitted = "NotPermitted"
        /// A cell, table or message over the configured limits.
        case limitExceeded = "LimitExceeded"
        /// No X display, or it went away.
        case clipboardUnavailable = "ClipboardUnavailable"
        /// Nothing, or no text, to paste.
        case clipboardEmpty = "ClipboardEmpty"
        /// The change could not be made durable; nothing changed.
        case storageFailure = "StorageFailure"
        /// `SetRowName` (or an import) gives a row a name that another row of the table has.
        case nameInUse = "NameInUse"
        /// A templates table's row (or a row put there) is not a well-formed template; the
        /// message names the byte offset (API version 3).
        case invalidTemplate = "InvalidTemplate"
        /// A template's `{input:…}` labels have no value in the call (API version 3).
        case inputRequired = "InputRequired"
        /// `ApplyTable` was given a document read at another revision than the table's
        /// (API version 4).
        case revisionMismatch = "RevisionMismatch"
        /// A change to a linked table whose file does not parse: the file is not
        /// overwritten; the message names it and its problem (API version 4).
        case linkedFileInvalid = "LinkedFileInvalid"
        /// `LinkTable` onto a file that exists: it is never overwritten (API version 4).
        case fileExists = "FileExists"
    }

    /// The kind of error.
    public let code: Code
    /// What was wrong, in words a person can act on.
    public let message: String

    /// Makes an error of kind `code` with `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// "Name: message".
    public var description: String { "\(code.rawValue): \(message)" }
}

extension CliptabError {
    /// The table `name` does not exist.
    public static func noSuchTable(_ name: String) -> CliptabError {
        CliptabError(.noSuchTable, "no table named \(Quotation.quoted(name))")
    }

    /// An index outside `0..<count` (or an insertion position outside `0...count`).
    public static func indexOutOfRange(
        _ what: String, index: Int32, count: Int, insertion: Bool = false
    ) -> CliptabError {
        let range: String
        if insertion {
            range = "0...\(count) or -1 to append"
        } else if count == 0 {
            range = "none: there are no \(what)s"
        } else {
            range = "0...\(count - 1) or -\(count)...-1"
        }
        return CliptabError(.indexOutOfRange, "\(what) index \(index) is out of range (valid: \(range))")
    }
}
