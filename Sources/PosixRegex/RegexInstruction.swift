// SPDX-License-Identifier: MIT

/// One instruction of a compiled Thompson NFA program.
enum RegexInstruction: Sendable {
    /// Consumes this scalar value.
    case scalar(UInt32)
    /// Consumes any scalar.
    case any
    /// Consumes a scalar of the bracket set with this index.
    case set(Int)
    /// Continues at both instructions.
    case split(Int, Int)
    /// Continues at the instruction.
    case jump(Int)
    /// Passes only at the start of the text (`^`).
    case textStart
    /// Passes only at the end of the text (`$`).
    case textEnd
    /// The whole expression matched.
    case match
}
