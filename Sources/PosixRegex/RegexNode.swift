// SPDX-License-Identifier: MIT

/// A parsed regular expression: the tree the compiler turns into a program.
indirect enum RegexNode {
    /// Matches the empty string (`()`, an empty alternative).
    case empty
    /// One scalar value.
    case scalar(UInt32)
    /// `.`: any scalar.
    case any
    /// A bracket expression: the set with this index.
    case set(Int)
    /// `^`.
    case textStart
    /// `$`.
    case textEnd
    /// The nodes one after the other.
    case concatenation([RegexNode])
    /// One of the nodes.
    case alternation([RegexNode])
    /// The node repeated `min` to `max` times (`max` nil: no upper bound).
    case repetition(RegexNode, min: Int, max: Int?)
}
