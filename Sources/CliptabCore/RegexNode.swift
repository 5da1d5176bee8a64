// SPDX-License-Identifier: MIT

/// A parsed regular expression: the tree the compiler turns into a program.
indirect enum RegexNode {
    case empty
    case scalar(UInt32)
    case any
    case set(Int)
    case textStart
    case textEnd
    case concatenation([RegexNode])
    case alternation([RegexNode])
    case repetition(RegexNode, min: Int, max: Int?)
}
