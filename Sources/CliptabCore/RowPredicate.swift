// SPDX-License-Identifier: MIT
import PosixRegex
import Quoting

/// A condition on a row's text: the operators of `DeleteWhere`.
public struct RowPredicate: Sendable {
    private enum Test: Sendable {
        case equals([UInt8])
        case contains([UInt8], failure: [Int])
        case prefix([UInt8])
        case suffix([UInt8])
        case matches(ExtendedRegex)
        case numeric(DecimalText, Comparison)
    }

    private enum Comparison: String, Sendable {
        case greater = ">"
        case greaterOrEqual = ">="
        case less = "<"
        case lessOrEqual = "<="
        case equal = "=="
        case notEqual = "!="
    }

    private let test: Test

    /// The operator names, as the contract lists them.
    public static let operators = [
        "equals", "contains", "prefix", "suffix", "matches", ">", ">=", "<", "<=", "==", "!=",
    ]

    /// Parses `op` with its `operand`; an unknown operator, a bad pattern or a numeric
    /// operator with a non-numeric operand is `InvalidArgument`.
    public init(operator op: String, operand: String) throws {
        let bytes = Array(operand.utf8)
        switch op {
        case "equals": test = .equals(bytes)
        case "contains": test = .contains(bytes, failure: Self.failureTable(bytes))
        case "prefix": test = .prefix(bytes)
        case "suffix": test = .suffix(bytes)
        case "matches": test = .matches(try ExtendedRegex(checked: operand))
        case ">", ">=", "<", "<=", "==", "!=":
            guard let number = DecimalText(operand), let comparison = Comparison(rawValue: op) else {
                throw CliptabError(
                    .invalidArgument,
                    "operator \(Quotation.quoted(op)) needs a decimal number as operand (like -3 or 2.5), not \(Quotation.quoted(operand))"
                )
            }
            test = .numeric(number, comparison)
        default:
            throw CliptabError(
                .invalidArgument,
                "unknown operator \(Quotation.quoted(op)) (valid: \(Self.operators.joined(separator: " ")))")
        }
    }

    /// True when `text` satisfies the condition; spends `budget` (the row's set-up and the
    /// bytes read) and throws `limitExceeded` when it runs out.
    ///
    /// Text comparisons are byte-exact on UTF-8 (no Unicode normalisation), so "equals" means the very same
    /// bytes.
    public func matches(_ text: String, budget: inout MatchBudget) throws -> Bool {
        let utf8 = text.utf8
        switch test {
        case .equals(let operand):
            // Texts of another length differ without reading them.
            let count = utf8.count
            guard count == operand.count else {
                try budget.charge(MatchBudget.perRowSteps)
                return false
            }
            try budget.charge(MatchBudget.perRowSteps + count)
            return utf8.elementsEqual(operand)
        case .prefix(let operand):
            try budget.charge(MatchBudget.perRowSteps + min(utf8.count, operand.count))
            return utf8.starts(with: operand)
        case .suffix(let operand):
            try budget.charge(MatchBudget.perRowSteps + min(utf8.count, operand.count))
            return utf8.reversed().starts(with: operand.reversed())
        case .contains(let operand, let failure):
            // KMP reads each byte once, plus at most as many fall-backs: twice the text.
            try budget.charge(MatchBudget.perRowSteps + 2 * utf8.count)
            return Self.find(operand, failure: failure, in: text)
        case .matches(let regex): return try regex.matches(text, budget: &budget)
        case .numeric(let operand, let comparison):
            try budget.charge(MatchBudget.perRowSteps + utf8.count)
            guard let number = DecimalText(text) else { return false }
            switch comparison {
            case .greater: return number > operand
            case .greaterOrEqual: return number >= operand
            case .less: return number < operand
            case .lessOrEqual: return number <= operand
            case .equal: return number == operand
            case .notEqual: return number != operand
            }
        }
    }

    /// The Knuth–Morris–Pratt failure table of `needle`: built once per request, in time
    /// linear in the operand, so that no row pays for the operand's length.
    private static func failureTable(_ needle: [UInt8]) -> [Int] {
        var failure = [Int](repeating: 0, count: needle.count)
        var matched = 0
        for index in needle.indices.dropFirst() {
            while matched > 0 && needle[index] != needle[matched] { matched = failure[matched - 1] }
            if needle[index] == needle[matched] { matched += 1 }
            failure[index] = matched
        }
        return failure
    }

    /// Substring search in linear time (Knuth–Morris–Pratt), so that a 16 MiB operand
    /// against 16 MiB cells cannot take quadratic time.
    private static func find(_ needle: [UInt8], failure: [Int], in text: String) -> Bool {
        if needle.isEmpty { return true }
        // A row shorter than the operand cannot hold it.
        if text.utf8.count < needle.count { return false }
        var matched = 0
        for byte in text.utf8 {
            while matched > 0 && byte != needle[matched] { matched = failure[matched - 1] }
            if byte == needle[matched] { matched += 1 }
            if matched == needle.count { return true }
        }
        return false
    }
}
