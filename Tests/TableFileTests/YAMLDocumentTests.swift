import TestSupport
// SPDX-License-Identifier: MIT
import Testing
import YAMLDocument

/// The libyaml wrapper: strings only, places on every node, bounds, errors, exact scalars.
@Suite struct YAMLDocumentTests {
    private func parse(_ text: String) throws -> YAMLNode? { try YAMLParser.document(Array(text.utf8)) }

    private func error(_ text: String) -> YAMLError? {
        do {
            _ = try parse(text)
            return nil
        } catch let error as YAMLError {
            return error
        } catch {
            return nil
        }
    }

    @Test func everyScalarIsAString() throws {
        let root = try #require(try parse("a: no\nb: 1.0\nc: ~\nd:\ne: true\n"))
        guard case .mapping(let pairs) = root.content else {
            Issue.record("not a mapping")
            return
        }
        #expect(pairs.map { $0.value.string } == ["no", "1.0", "~", "", "true"])
    }

    @Test func nodesKnowTheirPlace() throws {
        let root = try #require(try parse("# comment\nrows:\n  - one\n  - two\n"))
        guard case .mapping(let pairs) = root.content, case .sequence(let items, _) = pairs[0].value.content
        else {
            Issue.record("unexpected shape")
            return
        }
        #expect(pairs[0].key.mark == YAMLMark(line: 2, column: 1))
        #expect(items[1].mark == YAMLMark(line: 4, column: 5))
    }

    @Test func emptyTextHasNoDocument() throws {
        #expect(try parse("") == nil)
        #expect(try parse("# only a comment\n") == nil)
    }

    @Test func duplicateKeysAreRefusedAtTheSecond() throws {
        let failure = try #require(error("a: 1\nb: 2\na: 3\n"))
        #expect(failure.description == "line 3, column 1: the key \"a\" appears twice in this mapping")
    }

    @Test func syntaxErrorsNameLineAndColumn() throws {
        let failure = try #require(error("rows:\n  - one\n - two\n"))
        #expect(failure.mark?.line == 3, "\(failure)")
        #expect(failure.description.hasPrefix("line 3, column "))
    }

    @Test func aliasesAreRefusedBeforeAnythingGrows() throws {
        // A billion laughs: nine levels of ten aliases each.
        var text = "a: &a [\"lol\"]\n"
        var previous = "a"
        for level in "bcdefghij" {
            let refs = Array(repeating: "*\(previous)", count: 10).joined(separator: ",")
            text += "\(level): &\(level) [\(refs)]\n"
            previous = String(level)
        }
        let failure = try #require(error(text))
        #expect(failure.description == "line 2, column 8: aliases (*name) are not allowed in a table file")
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        let failure = try #require(error(deep))
        #expect(failure.message.contains("nested more than 64 levels"), "\(failure)")
        #expect(try parse(String(repeating: "[", count: 60) + String(repeating: "]", count: 60)) != nil)
    }

    @Test func tagsOtherThanStringAreRefused() throws {
        #expect(error("a: !!int 5\n")?.message.contains("not allowed") == true)
        let root = try #require(try parse("a: !!str 5\n"))
        guard case .mapping(let pairs) = root.content else {
            Issue.record("not a mapping")
            return
        }
        #expect(pairs.map { [$0.key.string, $0.value.string] } == [["a", "5"]])
    }

    @Test func aSecondDocumentIsRefused() throws {
        #expect(error("a: 1\n---\nb: 2\n")?.message.contains("second document") == true)
    }

    @Test(arguments: HostileTexts.catalogue.map(\.label))
    func scalarsRoundTripExactly(label: String) throws {
        let text = try #require(HostileTexts.catalogue.first { $0.label == label }).text
        let written = try YAMLEmitter.text(
            of: YAMLNode(.sequence([.scalar(text), .scalar("after")], flow: false)))
        let read = try #require(try YAMLParser.document(written))
        guard case .sequence(let items, _) = read.content else {
            Issue.record("not a list: \(String(decoding: written, as: UTF8.self))")
            return
        }
        #expect(
            items.map(\.string) == [text, "after"],
            "\(label) written as \(String(decoding: written, as: UTF8.self).debugDescription)")
    }

    @Test func multiLineTextIsALiteralBlock() throws {
        let written = try YAMLEmitter.text(
            of: YAMLNode(.mapping([(.scalar("text"), .scalar("Best regards,\nAda"))])))
        #expect(String(decoding: written, as: UTF8.self) == "text: |-\n  Best regards,\n  Ada\n")
    }

    @Test func randomTextsRoundTrip() throws {
        var random = SeededRandom("yaml scalars", fixed: 38)
        let pieces = [
            " ", "\n", "\t", "\r", "#", "-", ":", "'", "\"", "\\", "a", "b", "é", "👍", "\u{85}", "\u{2028}",
            "---",
            "...", "?", "|", ">", "&", "*", "!", "%", "@", "`", "{", "}", "[", "]", ",", "\u{1}", "\u{7F}",
            "\u{FEFF}",
        ]
        for _ in 0..<2000 {
            var text = ""
            for _ in 0..<random.below(12) { text += pieces[random.below(pieces.count)] }
            let written = try YAMLEmitter.text(of: YAMLNode(.sequence([.scalar(text)], flow: false)))
            let read = try YAMLParser.document(written)
            guard case .sequence(let items, _)? = read?.content, items.count == 1 else {
                Issue.record("\(text.debugDescription) did not read back as one item")
                return
            }
            #expect(
                items[0].string == text,
                "\(SeededRandom.replay(random.seed)): \(text.debugDescription) written as \(String(decoding: written, as: UTF8.self).debugDescription)"
            )
        }
    }
}
