// SPDX-License-Identifier: MIT
import Foundation
import Posix
import Testing
import X11Desktop

/// The service as requestor, reading what real clients own.
@Suite(.serialized)
struct ReadingTests {
    @Test(arguments: ["xclip", "xsel"], ["ascii", "unicode", "whitespace", "10MiB"])
    func readsWhatAClientOwns(owner: String, sample: String) throws {
        let harness = try Harness()
        let text = Sample.named(sample)
        let command =
            owner == "xclip"
            ? ["xclip", "-quiet", "-i", "-selection", "clipboard"] : ["xsel", "--nodetach", "-b", "-i"]
        let process = try harness.startOwner(command, text: text)
        defer { process.terminate(graceMilliseconds: 1000) }
        let result = try #require(harness.read(timeoutMilliseconds: 20_000))
        switch result {
        case .success(let bytes):
            #expect(mismatch(bytes, text) == nil)
        case .failure(let error):
            Issue.record("reading from \(owner) failed: \(error)")
        }
        #expect(harness.service.pendingReadCount == 0)
    }

    @Test func readsEmptyText() throws {
        let harness = try Harness()
        // xsel gives the selection up on empty input instead of owning an empty text.
        let process = try harness.startOwner(["xclip", "-quiet", "-i", "-selection", "clipboard"], text: [])
        defer { process.terminate(graceMilliseconds: 1000) }
        #expect(try harness.read()?.get() == [])
    }

    @Test func readsPrimary() throws {
        let harness = try Harness()
        let process = try harness.startOwner(
            ["xclip", "-quiet", "-i", "-selection", "primary"], text: Sample.unicode, selection: "primary")
        defer { process.terminate(graceMilliseconds: 1000) }
        #expect(try harness.read(.primary)?.get() == Sample.unicode)
        // Nobody owns CLIPBOARD meanwhile.
        guard case .failure(.empty)? = harness.read(.clipboard) else {
            Issue.record("CLIPBOARD should be empty")
            return
        }
    }

    /// An owner's answer that a later round trip read into Xlib's queue (here the owner
    /// query of a second read, as the daemon's secret clear makes one after starting a
    /// read) asks for the next turn at once: poll cannot see it, and the read would
    /// otherwise wait for its timeout.
    @Test func answerQueuedByARoundTripIsHandledAtOnce() throws {
        let harness = try Harness()
        let process = try harness.startOwner(
            ["xclip", "-quiet", "-i", "-selection", "clipboard"], text: Sample.ascii)
        defer { process.terminate(graceMilliseconds: 1000) }
        var result: Result<[UInt8], SelectionReadError>?
        harness.service.readText(.clipboard, timeoutMilliseconds: 20_000, maxBytes: 1 << 20) { result = $0 }
        // Owner queries (round trips, as a second read makes) until one of them has read
        // xclip's answer into the queue; between them, wait for the socket a little.
        var fds = [pollfd(fd: harness.service.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        var queries = 0
        while harness.service.nextDeadline() != 0 && queries < 200 {
            fds[0].revents = 0
            _ = poll(&fds, 1, 50)
            var primary: Result<[UInt8], SelectionReadError>?
            harness.service.readText(.primary, timeoutMilliseconds: 20_000, maxBytes: 1 << 20) {
                primary = $0
            }
            guard case .failure(.empty)? = primary else {
                Issue.record(
                    "PRIMARY has no owner: its read should fail at once, not \(String(describing: primary))")
                return
            }
            queries += 1
        }
        #expect(harness.service.nextDeadline() == 0, "an answer in Xlib's queue waits for the read's timeout")
        #expect(result == nil, "the read ended before its answer was handled")
        // Turns that wait only for the socket: a missed answer would never come.
        var turns = 0
        while result == nil && turns < 100 {
            harness.service.processEvents(now: MonotonicClock.milliseconds())
            turns += 1
            if result != nil || harness.service.nextDeadline() == 0 { continue }
            fds[0].revents = 0
            _ = poll(&fds, 1, 1000)
        }
        #expect(try result?.get() == Sample.ascii, "the read ended with \(String(describing: result))")
    }

    @Test func latin1StringOwnerIsConvertedToUTF8() throws {
        let harness = try Harness()
        // xclip -t STRING offers only STRING (with TARGETS): the reader must fall back to it.
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x20, 0xA9]
        let process = try harness.startOwner(
            ["xclip", "-quiet", "-i", "-selection", "clipboard", "-t", "STRING"], text: latin1)
        defer { process.terminate(graceMilliseconds: 1000) }
        #expect(try harness.read()?.get() == Array("café ©".utf8))
    }

    /// An owner offering only COMPOUND_TEXT is decoded from it (ISO 2022: Latin-1 in the
    /// right half by default, other sets by escape), never taken as UTF-8, which would turn
    /// "café" into "caf\u{FFFD}".
    @Test func compoundTextOwnerIsDecoded() throws {
        let harness = try Harness()
        let greek: [UInt8] = [0x1B, 0x2D, 0x46, 0xE1, 0x1B, 0x2D, 0x41]
        let compound: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x20] + greek + [0x20, 0xA9]
        let process = try harness.startOwner(
            ["xclip", "-quiet", "-i", "-selection", "clipboard", "-t", "COMPOUND_TEXT"], text: compound)
        defer { process.terminate(graceMilliseconds: 1000) }
        let read = try harness.read()?.get()
        #expect(read == Array("café α ©".utf8), "read \(String(decoding: read ?? [], as: UTF8.self))")
    }

    @Test func invalidUTF8FromAnOwnerIsRepaired() throws {
        let harness = try Harness()
        let process = try harness.startOwner(
            ["xclip", "-quiet", "-i", "-selection", "clipboard"], text: [0x61, 0xFF, 0x62, 0xC3])
        defer { process.terminate(graceMilliseconds: 1000) }
        #expect(try harness.read()?.get() == Array("a\u{FFFD}b\u{FFFD}".utf8))
    }

    @Test func noOwnerIsEmpty() throws {
        let harness = try Harness()
        guard case .failure(.empty(let message))? = harness.read() else {
            Issue.record("expected .empty")
            return
        }
        #expect(message.contains("no program owns CLIPBOARD"))
    }

    @Test func ownerWithoutTextIsEmpty() throws {
        let harness = try Harness()
        let process = try harness.startOwner(
            ["xclip", "-quiet", "-i", "-selection", "clipboard", "-t", "image/png"],
            text: [0x89, 0x50, 0x4E, 0x47])
        defer { process.terminate(graceMilliseconds: 1000) }
        guard case .failure(.empty(let message))? = harness.read() else {
            Issue.record("expected .empty")
            return
        }
        #expect(message.contains("image/png"))
    }

    @Test func hungOwnerTimesOut() throws {
        let harness = try Harness()
        let process = try harness.startOwner(
            ["xclip", "-quiet", "-i", "-selection", "clipboard"], text: Sample.ascii)
        defer {
            process.signal(SIGKILL)
            process.terminate(graceMilliseconds: 1000)
        }
        process.signal(SIGSTOP)
        let started = MonotonicClock.milliseconds()
        let result = harness.read(timeoutMilliseconds: 500)
        let elapsed = MonotonicClock.milliseconds() - started
        guard case .failure(.timedOut(let message))? = result else {
            Issue.record("expected .timedOut, got \(String(describing: result))")
            return
        }
        #expect(message.contains("500 ms"))
        #expect(elapsed >= 500 && elapsed < 1500, "took \(elapsed) ms")
        // The service still answers others: a later read of PRIMARY is not blocked.
        guard case .failure(.empty)? = harness.read(.primary, timeoutMilliseconds: 2000) else {
            Issue.record("reading PRIMARY after a timeout should find it empty")
            return
        }
    }

    @Test(arguments: ["xclip", "xsel"])
    func overTheLimitIsTooLarge(owner: String) throws {
        let harness = try Harness()
        let command =
            owner == "xclip"
            ? ["xclip", "-quiet", "-i", "-selection", "clipboard"] : ["xsel", "--nodetach", "-b", "-i"]
        // xsel sends 10 KiB incrementally (INCR above 4000 bytes), xclip in one property.
        let process = try harness.startOwner(command, text: Sample.large(10_000))
        defer { process.terminate(graceMilliseconds: 1000) }
        guard case .failure(.tooLarge(let message))? = harness.read(maxBytes: 1000) else {
            Issue.record("expected .tooLarge")
            return
        }
        #expect(message.contains("1000"))
        #expect(try harness.read(maxBytes: 10_000)?.get() == Sample.large(10_000))
    }

    @Test func abandonedTransferIsDrainedSoTheOwnerIsNotStuck() throws {
        let harness = try Harness()
        let text = Sample.large(10 << 20)
        // xclip 0.13 serves one INCR transfer at a time and drops requests meanwhile: if the
        // reader stopped deleting the property after giving up, xclip would be stuck and
        // answer nobody any more (astrand/xclip #34).
        let process = try harness.startOwner(
            ["xclip", "-quiet", "-i", "-selection", "clipboard"], text: text)
        defer { process.terminate(graceMilliseconds: 1000) }
        guard case .failure(.tooLarge)? = harness.read(maxBytes: 1 << 20) else {
            Issue.record("expected .tooLarge")
            return
        }
        // Read again until xclip answers: it drops the requests that come while the abandoned
        // transfer drains (milliseconds locally); a stuck xclip answers none of them.
        var result = try #require(harness.read(timeoutMilliseconds: 500))
        var reads = 1
        while case .failure(.timedOut) = result, reads < 20 {
            result = try #require(harness.read(timeoutMilliseconds: 500))
            reads += 1
        }
        if case .failure(let error) = result {
            Issue.record("read \(reads) after the abandoned one: \(error)")
        }
        #expect(mismatch((try? result.get()) ?? [], text) == nil)
    }

    @Test func ownTextIsReadWithoutARoundTrip() throws {
        let harness = try Harness()
        try harness.service.own(.clipboard, text: Sample.unicode, secret: false)
        var result: Result<[UInt8], SelectionReadError>?
        harness.service.readText(.clipboard, timeoutMilliseconds: 1000, maxBytes: 1 << 20) { result = $0 }
        // Answered before readText returned: no event was processed in between.
        #expect(try result?.get() == Sample.unicode)
        harness.service.readText(.clipboard, timeoutMilliseconds: 1000, maxBytes: 4) { result = $0 }
        guard case .failure(.tooLarge)? = result else {
            Issue.record("expected .tooLarge for our own text")
            return
        }
    }

    @Test func concurrentReadsOfBothSelections() throws {
        let harness = try Harness()
        let clipboardOwner = try harness.startOwner(
            ["xsel", "--nodetach", "-b", "-i"], text: Sample.large(300_000))
        defer { clipboardOwner.terminate(graceMilliseconds: 1000) }
        let primaryOwner = try harness.startOwner(
            ["xclip", "-quiet", "-i", "-selection", "primary"], text: Sample.unicode, selection: "primary")
        defer { primaryOwner.terminate(graceMilliseconds: 1000) }
        var results: [Int: Result<[UInt8], SelectionReadError>] = [:]
        for index in 0..<6 {
            harness.service.readText(
                index % 2 == 0 ? .clipboard : .primary, timeoutMilliseconds: 20_000, maxBytes: 1 << 20
            ) { results[index] = $0 }
        }
        #expect(harness.pump(milliseconds: 25_000) { results.count == 6 })
        for index in 0..<6 {
            let expected = index % 2 == 0 ? Sample.large(300_000) : Sample.unicode
            #expect(try results[index]?.get() == expected, "read \(index)")
        }
    }
}
