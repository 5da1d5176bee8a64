// SPDX-License-Identifier: MIT
import PosixRegex

/// The regular expressions of `DeleteWhere … matches` and the searches, in the contract's
/// errors and under a request's one budget.
extension ExtendedRegex {
    /// Compiles `pattern`; a bad pattern is `invalidArgument` saying where and why, one too
    /// large once expanded `limitExceeded`.
    public init(checked pattern: String) throws(CliptabError) {
        do {
            try self.init(pattern)
        } catch {
            throw CliptabError(error)
        }
    }

    /// True when the expression matches somewhere in `text`; spends `budget` and throws
    /// `limitExceeded` when it runs out.
    public func matches(_ text: String, budget: inout MatchBudget) throws(CliptabError) -> Bool {
        do {
            return try matches(text, steps: &budget.remaining, scratch: &budget.scratch)
        } catch {
            throw CliptabError(
                .limitExceeded,
                "matching the regular expression \(ExtendedRegex.quoted(pattern)) against the rows is too costly "
                    + "(the scan budget of one request, \(budget.total) steps, is spent); simplify the pattern "
                    + "(fewer nested repetitions, intervals or alternatives) or delete from fewer or shorter rows"
            )
        }
    }
}
