// SPDX-License-Identifier: MIT
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// Every shell block of the README, pasted as a user would: in order, into one bash, against
/// a private daemon and display, with the built `cliptab` first on `PATH`.
///
/// The fence's info string says how a block is checked:
/// - `sh`: run; every command must succeed, and a `text` block right after it is its output;
/// - `sh-desktop`: needs a desktop session (systemctl --user, gsettings, the session's own
///   bus), which a test cannot stand for: only checked with `sh -n`;
/// - `sh-setup`: sets up the machine (installs packages, builds, installs cliptab, runs the
///   test suite itself): only checked with `sh -n`.
@Suite(.serialized) struct ReadmeTests {
    /// The repository's README.
    static let readmePath: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/README.md"
    }()

    /// The README's text.
    static func readme() throws -> String {
        let result = try ChildProcess.run("cat", [readmePath])
        guard result.termination == .exited(0) else { throw FixtureError("cannot read \(readmePath)") }
        return result.outputText
    }

    /// The info strings a README block may have.
    static let knownInfos: Set<String> = ["sh", "sh-desktop", "sh-setup", "text", "ini"]

    /// Every block is of a known kind; the blocks that are not run are valid shell.
    @Test func everyBlockIsKnownAndParses() throws {
        let blocks = ReadmeBlock.blocks(of: try Self.readme())
        #expect(blocks.filter { $0.info == "sh" }.count >= 8)
        for block in blocks {
            #expect(
                Self.knownInfos.contains(block.info), "README line \(block.line): unknown fence \(block.info)"
            )
        }
        for block in blocks where block.info.hasPrefix("sh") {
            let check = try ChildProcess.run("sh", ["-n"], input: Array(block.text.utf8))
            #expect(
                check.termination == .exited(0) && check.errorText.isEmpty,
                "README line \(block.line): \(check.errorText)")
        }
    }

    /// The install section's package lists are `.ci/deps`'s, word for word.
    @Test func packageListsMatchTheScript() throws {
        let root = String(Self.readmePath.dropLast("/README.md".count))
        let lists = try ChildProcess.run(
            "bash",
            [
                "-c",
                "source \"$0/.ci/deps\"; echo \"${runtime_packages[*]}\"; echo \"${build_packages[*]}\";"
                    + " echo \"${test_packages[*]}\"",
                root,
            ])
        let readme = try Self.readme()
        let rows = ["running", "building", "the tests"]
        let words = lists.outputText.split(separator: "\n").map(String.init)
        #expect(words.count == 3, "\(lists.errorText)")
        for (row, packages) in zip(rows, words) {
            #expect(readme.contains("| \(row) | `\(packages)` |"), "README's \(row) packages: \(packages)")
        }
    }

    /// The `sh` blocks run against a private daemon, each succeeding, with the output shown.
    @Test func shellBlocksRun() throws {
        let blocks = ReadmeBlock.blocks(of: try Self.readme()).filter { $0.info == "sh" }
        let session = try DaemonProcess(withDisplay: true, homePrefix: "cliptab-readme")
        defer { session.stop() }
        var environment = session.environment
        environment["PATH"] = BuiltProducts.directory + ":" + (environment["PATH"] ?? "")
        environment["SHELL"] = "/bin/bash"

        // One bash for all, as one terminal: a block may use a function an earlier one made.
        var driver = "set -e\ncd \"$HOME\"\n"
        driver += "[ \"$(command -v cliptab)\" = \"\(BuiltProducts.directory)/cliptab\" ]\n"
        for (index, block) in blocks.enumerated() {
            let file = session.home.appending("readme-block-\(index).sh")
            try write(block.text, to: file)
            driver += "printf '::block \(index)\\n'; printf '::block \(index)\\n' >&2\n"
            driver += "source \(file)\n"
            driver += "printf '\\n::end \(index)\\n'\n"
        }
        let result = try ChildProcess.run(
            "bash", ["-c", driver], environment: environment, timeoutMilliseconds: 120_000)
        let output = result.outputText
        for (index, block) in blocks.enumerated() {
            guard let start = output.range(of: "::block \(index)\n"),
                let end = output.range(of: "\n::end \(index)\n", range: start.upperBound..<output.endIndex)
            else {
                let report =
                    "README line \(block.line): the block failed (\(result.termination)):\n\(block.text)\n"
                    + "stderr:\n\(result.errorText)"
                Issue.record(Comment(rawValue: report))
                return
            }
            if let expected = block.expectedOutput {
                let shown = String(output[start.upperBound..<end.lowerBound])
                #expect(
                    trimmed(shown) == trimmed(expected),
                    "README line \(block.line): the output differs from the README's")
            }
        }
        #expect(result.termination == .exited(0), "\(result.errorText)")
    }

    /// `text` without newlines at its end.
    func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while text.hasSuffix("\n") { text = text.dropLast() }
        return String(text)
    }

    /// Writes `text` to `path`.
    func write(_ text: String, to path: String) throws {
        let result = try ChildProcess.run("sh", ["-c", "cat > \"$0\"", path], input: Array(text.utf8))
        guard result.termination == .exited(0) else { throw FixtureError("cannot write \(path)") }
    }
}
