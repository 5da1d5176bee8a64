// SPDX-License-Identifier: MIT

/// A fenced block of the README: its info string, its text, where it starts, and the
/// `text` block that shows its output, if one follows it directly.
struct ReadmeBlock {
    /// The fence's info string (`sh`, `sh-desktop`, `text`, …).
    let info: String
    /// The lines between the fences, each ending with a newline.
    let text: String
    /// The line number of the opening fence.
    let line: Int
    /// The output the README shows for it: the text of a `text` block right after it.
    var expectedOutput: String?

    /// The fenced blocks of `markdown`, in order.
    static func blocks(of markdown: String) -> [ReadmeBlock] {
        var blocks: [ReadmeBlock] = []
        var open: (info: String, line: Int, text: String)?
        var onlyBlanksSinceClose = false
        for (index, rawLine) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        {
            let line = String(rawLine)
            if var current = open {
                if line.hasPrefix("```") {
                    let block = ReadmeBlock(info: current.info, text: current.text, line: current.line)
                    // Only blank lines between a shell block and a text block make the
                    // latter its output.
                    if block.info == "text", onlyBlanksSinceClose, let last = blocks.last, last.info == "sh" {
                        blocks[blocks.count - 1].expectedOutput = block.text
                    }
                    blocks.append(block)
                    open = nil
                    onlyBlanksSinceClose = true
                } else {
                    current.text += line + "\n"
                    open = current
                }
                continue
            }
            if line.hasPrefix("```") {
                open = (String(line.dropFirst(3)), index + 1, "")
            } else if !line.allSatisfy(\.isWhitespace) {
                onlyBlanksSinceClose = false
            }
        }
        return blocks
    }
}
