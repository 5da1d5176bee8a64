// SPDX-License-Identifier: MIT
import YAMLDocument

extension YAMLNode {
    /// The value of `key` when the node is a mapping.
    subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs) = content else { return nil }
        return pairs.first { $0.key.string == key }?.value
    }

    /// The text of a scalar node.
    var string: String? {
        guard case .scalar(let text, _) = content else { return nil }
        return text
    }

    /// The items of a sequence node.
    var items: [YAMLNode]? {
        guard case .sequence(let items, _) = content else { return nil }
        return items
    }

    /// The keys of a mapping node, in order.
    var keys: [String] {
        guard case .mapping(let pairs) = content else { return [] }
        return pairs.compactMap { $0.key.string }
    }
}

/// The root of a YAML (or JSON) text, with the source's name in the error.
func parseYAML(_ file: SourceFile) throws -> YAMLNode? {
    guard let text = String(validating: file.bytes, as: UTF8.self) else {
        throw SourceError("\(file.path): not UTF-8 text")
    }
    do {
        return try YAMLParser.document(text.utf8)
    } catch let error as YAMLError {
        throw SourceError("\(file.path): \(error.description)")
    }
}

/// A source that cannot be read as its format: the whole import is refused.
struct SourceError: Error {
    /// What is wrong, where.
    let message: String

    init(_ message: String) { self.message = message }
}
