// SPDX-License-Identifier: MIT
import Quoting

/// Validation of table names.
public enum TableName {
    /// Throws `InvalidName` unless `name` is 1…255 bytes of UTF-8 without control
    /// characters or `/`.
    public static func validate(_ name: String) throws(CliptabError) {
        if name.isEmpty { throw CliptabError(.invalidName, "a table name cannot be empty") }
        let size = name.utf8.count
        if size > Limits.maxNameBytes {
            throw CliptabError(
                .invalidName, "table name is \(size) bytes long; the limit is \(Limits.maxNameBytes)")
        }
        for scalar in name.unicodeScalars {
            if scalar == "/" {
                throw CliptabError(
                    .invalidName, "table name \(Quotation.quoted(name)) contains \"/\", which is not allowed")
            }
            // C0 and C1 control characters and DEL (Unicode category Cc).
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                let code = String(scalar.value, radix: 16, uppercase: true)
                throw CliptabError(
                    .invalidName, "table name contains the control character U+\(code), which is not allowed")
            }
        }
    }
}
