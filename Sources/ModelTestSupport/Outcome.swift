// SPDX-License-Identifier: MIT
import CliptabCore

/// A call's result: an answer, or the code of the error it threw.
enum Outcome: Equatable {
    /// The call succeeded with this answer.
    case answer(Answer)
    /// The call threw an error of this kind.
    case error(CliptabError.Code)
}
