// SPDX-License-Identifier: MIT
import PosixRegex

extension CliptabError {
    /// The contract's error for a refused pattern: `invalidArgument` for a bad one,
    /// `limitExceeded` for one over a limit.
    public init(_ error: RegexError) {
        switch error.kind {
        case .invalidPattern: self.init(.invalidArgument, error.message)
        case .limitExceeded: self.init(.limitExceeded, error.message)
        }
    }
}
