// SPDX-License-Identifier: MIT

/// A contract document that cannot be read as the tables it should hold.
struct ContractDocumentError: Error, CustomStringConvertible {
    /// What is wrong, with the text in question.
    let description: String

    /// Makes an error with a message.
    init(_ description: String) { self.description = description }
}
