// SPDX-License-Identifier: MIT

/// One instruction of a compiled Thompson NFA program.
enum RegexInstruction: Sendable {
    case scalar(UInt32)
    case any
    case set(Int)
    case split(Int, Int)
    case jump(Int)
    case textStart
    case textEnd
    case match
}
