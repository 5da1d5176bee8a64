// SPDX-License-Identifier: MIT
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// Every shell block of the README and of the pages it sends readers to, pasted as a user
/// would: in order, into one bash, against a private daemon and display, with the built
/// `cliptab` first on `PATH`.
///
/// The fence's info string says how a block is checked:
/// - `sh`: run; every command must succeed, and a `text` block right after it is its output;
/// - `sh-desktop`: needs a desktop session (systemctl --user, gsettings, the session's own
///   bus), which a test cannot stand for: only checked with `sh -n`;
/// - `sh-setup`: sets up the machine (installs packages, builds, installs cliptab, runs the
///   test suite itself): only checked with `sh -n`.
@Suite(.serialized) struct ReadmeTests {
    /// The repository's README.
    static let readmePath = Repository.path("README.md")

    /// The repository's root.
    static var root: String { String(readmePath.dropLast("/README.md".count)) }

    /// The user's page and the pages under `docs/` its details moved to, in reading order.
    static let pages = [
        "README.md", "docs/install.md", "docs/desktops.md", "docs/pasting-and-popups.md",
        "docs/configuration.md", "docs/scripting.md", "docs/troubleshooting.md", "docs/architecture.md",
        "docs/adding-a-method.md", "docs/benchmarks.md",
    ]

    /// The text of `page`, a path from the repository's root.
    static func text(of page: String) throws -> String {
        let path = root + "/" + page
        let result = try ChildProcess.run("cat", [path])
        guard result.termination == .exited(0) else { throw FixtureError("cannot read \(path)") }
        return result.outputText
    }

    /// The README's text.
    static func readme() throws -> String { try text(of: "README.md") }

    /// Every fenced block of every page, in reading order, with the page it is on.
    static func pageBlocks() throws -> [(page: String, block: ReadmeBlock)] {
        try pages.flatMap { page in ReadmeBlock.blocks(of: try text(of: page)).map { (page, $0) } }
    }

    /// The info strings a README block may have.
    static let knownInfos: Set<String> = ["sh", "sh-desktop", "sh-setup", "text", "ini"]

    /// Every block is of a known kind; the blocks that are not run are valid shell.
    @Test func everyBlockIsKnownAndParses() throws {
        #expect(ReadmeBlock.blocks(of: try Self.readme()).filter { $0.info == "sh" }.count >= 8)
        for (page, block) in try Self.pageBlocks() {
            #expect(
                Self.knownInfos.contains(block.info),
                "\(page) line \(block.line): unknown fence \(block.info)")
            guard block.info.hasPrefix("sh") else { continue }
            let check = try ChildProcess.run("sh", ["-n"], input: Array(block.text.utf8))
            #expect(
                check.termination == .exited(0) && check.errorText.isEmpty,
                "\(page) line \(block.line): \(check.errorText)")
        }
    }

    /// The README stays the user's page: short, with the two set-up commands near the top.
    @Test func readmeIsShortWithTheSetUpFirst() throws {
        let lines = try Self.readme().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 301, "the README has \(lines.count - 1) lines; move details to docs/")
        let daemon = lines.firstIndex { $0.hasPrefix(".ci/daemon ") }
        let test = lines.firstIndex { $0.hasPrefix(".ci/test ") }
        #expect(
            daemon.map { $0 < 40 } == true && test.map { $0 < 40 } == true, "\(String(describing: daemon))")
    }

    /// Every relative link of the pages names a file of the repository.
    @Test func linksLeadToFiles() throws {
        var checked = 0
        for page in Self.pages + ["docs/cli.md", "docs/dbus-api.md"] {
            let text = try Self.text(of: page)
            let directory = page.contains("/") ? String(page[..<page.lastIndex(of: "/")!]) + "/" : ""
            var rest = Substring(text)
            while let open = rest.range(of: "](") {
                rest = rest[open.upperBound...]
                guard let close = rest.firstIndex(of: ")") else { break }
                let target = String(rest[..<close].prefix { $0 != "#" })
                if target.isEmpty || target.contains("://") { continue }
                checked += 1
                #expect(
                    access(Self.root + "/" + directory + target, F_OK) == 0,
                    "\(page): the link \(target) leads nowhere")
            }
        }
        #expect(checked >= 20)
    }

    /// The configuration the pages show is accepted by `cliptabd --check-config`.
    @Test func configurationExamplesAreValid() throws {
        let home = try TemporaryDirectory(prefix: "cliptab-readme-ini")
        let examples = try Self.pageBlocks().filter { $0.block.info == "ini" }
        #expect(!examples.isEmpty)
        for (index, (page, block)) in examples.enumerated() {
            let file = home.appending("example-\(index).conf")
            try write(block.text, to: file)
            let check = try ChildProcess.run(
                BuiltProducts.path(of: "cliptabd"), ["--config", file, "--check-config"],
                environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"], timeoutMilliseconds: 20_000)
            #expect(check.termination == .exited(0), "\(page) line \(block.line): \(check.errorText)")
        }
    }

    /// The install section's package lists are `.ci/deps`'s, word for word.
    @Test func packageListsMatchTheScript() throws {
        let root = Self.root
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
        let blocks = try Self.pageBlocks().filter { $0.block.info == "sh" }
        let session = try DaemonProcess(withDisplay: true, homePrefix: "cliptab-readme")
        defer { session.stop() }
        var environment = session.environment
        environment["PATH"] = BuiltProducts.directory + ":" + (environment["PATH"] ?? "")
        environment["SHELL"] = "/bin/bash"

        // One bash for all, as one terminal: a block may use a function an earlier one made.
        var driver = "set -e\ncd \"$HOME\"\n"
        driver += "[ \"$(command -v cliptab)\" = \"\(BuiltProducts.directory)/cliptab\" ]\n"
        for (index, (_, block)) in blocks.enumerated() {
            let file = session.home.appending("readme-block-\(index).sh")
            try write(block.text, to: file)
            driver += "printf '::block \(index)\\n'; printf '::block \(index)\\n' >&2\n"
            driver += "source \(file)\n"
            driver += "printf '\\n::end \(index)\\n'\n"
        }
        let result = try ChildProcess.run(
            "bash", ["-c", driver], environment: environment, timeoutMilliseconds: 120_000)
        let output = result.outputText
        for (index, (page, block)) in blocks.enumerated() {
            guard let start = output.range(of: "::block \(index)\n"),
                let end = output.range(of: "\n::end \(index)\n", range: start.upperBound..<output.endIndex)
            else {
                let report =
                    "\(page) line \(block.line): the block failed (\(result.termination)):\n\(block.text)\n"
                    + "stderr:\n\(result.errorText)"
                Issue.record(Comment(rawValue: report))
                return
            }
            if let expected = block.expectedOutput {
                let shown = String(output[start.upperBound..<end.lowerBound])
                #expect(
                    trimmed(shown) == trimmed(expected),
                    "\(page) line \(block.line): the output differs from the page's")
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
