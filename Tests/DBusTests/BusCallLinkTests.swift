// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Posix
import Synchronization
import TestSupport
import Testing

@testable import DBus

/// The call-only link: calls through a real dbus-daemon to the echo server, and against a
/// stand-in bus that shows what the link writes before it hears anything, and how it takes a
/// refusal, silence and a closed socket.
@Suite struct BusCallLinkTests {
    /// A link to the fixture's bus.
    static func link(_ fixture: EchoFixture) throws -> BusCallLink {
        try #require(try BusCallLink.open(address: fixture.bus.address))
    }

    @Test func callsReachAServiceThroughARealBus() throws {
        let fixture = try EchoFixture()
        let link = try Self.link(fixture)
        #expect(!link.isAccepted)
        let text = "héllo wörld ✓ 日本語\n"
        let reply = try link.call(fixture.message("EchoString", [.string(text)]), timeoutMilliseconds: 10_000)
        #expect(try reply.readValues() == [.string(text)])
        #expect(link.isAccepted)
        #expect(link.uniqueName?.hasPrefix(":") == true)
        // A second call on the same link, after the first exchange.
        let again = try link.call(
            fixture.message("EchoString", [.string("again")]), timeoutMilliseconds: 10_000)
        #expect(try again.readValues() == [.string("again")])
    }

    @Test func errorReplyIsThrownWithItsNameAndMessage() throws {
        let fixture = try EchoFixture()
        let link = try Self.link(fixture)
        let call = try fixture.message("Fail", [.string("io.test.Error.Nope"), .string("not today")])
        #expect {
            try link.call(call, timeoutMilliseconds: 10_000)
        } throws: { error in
            (error as? BusError) == BusError(name: "io.test.Error.Nope", message: "not today")
        }
        // Unknown to the bus: the bus's own error, through the same path.
        let nobody = try BusMessage.methodCall(
            destination: "io.test.Nobody", path: "/", interface: "io.test.Nobody", member: "Hi")
        try nobody.setAutoStart(false)
        #expect {
            try link.call(nobody, timeoutMilliseconds: 10_000)
        } throws: { error in
            (error as? BusError)?.name == "org.freedesktop.DBus.Error.NameHasNoOwner"
        }
    }

    @Test func aBatchIsAnsweredInItsOrder() throws {
        let fixture = try EchoFixture()
        let link = try Self.link(fixture)
        let outcomes = try link.callAll(
            [
                fixture.message("EchoString", [.string("first")]),
                fixture.message("Fail", [.string("io.test.Error.Second"), .string("second")]),
                fixture.message("EchoString", [.string("third")]),
            ], timeoutMilliseconds: 10_000)
        try #require(outcomes.count == 3)
        #expect(try outcomes[0].get().readValues() == [.string("first")])
        #expect(throws: BusError(name: "io.test.Error.Second", message: "second")) { try outcomes[1].get() }
        #expect(try outcomes[2].get().readValues() == [.string("third")])
    }

    /// A reply much larger than one read comes whole, and a sent message cannot be sent again.
    @Test func aLargeReplyIsReadInPieces() throws {
        let fixture = try EchoFixture()
        let link = try Self.link(fixture)
        let text = String(repeating: "0123456789abcdeé", count: 40_000)
        let call = try fixture.message("EchoString", [.string(text)])
        let reply = try link.call(call, timeoutMilliseconds: 20_000)
        #expect(try reply.readValues() == [.string(text)])
        #expect(throws: BusError.self) { try link.call(call, timeoutMilliseconds: 1000) }
    }

    /// The call costs the link one round trip.
    ///
    /// The authentication, `BEGIN`, `Hello` and the call arrive before the bus has said a
    /// word. A bus that then closes the socket fails the call as `Disconnected`, before the
    /// link was accepted.
    @Test func everythingIsWrittenBeforeTheBusAnswers() throws {
        let stand = try StandInBus()
        let link = try #require(try BusCallLink.open(address: stand.address))
        let call = try BusMessage.methodCall(
            destination: "io.test.Echo", path: "/io/test/Echo", interface: "io.test.Echo1",
            member: "EchoString")
        try call.append([.string("in the first write")])
        stand.respond { received in
            // Wait for the whole call without answering anything.
            received.count >= 2 && received.range(of: Data("in the first write".utf8)) != nil ? .close : nil
        }
        #expect {
            try link.call(call, timeoutMilliseconds: 5000)
        } throws: { error in
            (error as? BusError)?.name == BusErrorName.disconnected
        }
        #expect(!link.isAccepted)
        let received = stand.received()
        let text = String(decoding: received, as: UTF8.self)
        #expect(received.first == 0)
        #expect(
            text.contains(
                "AUTH EXTERNAL \(Array(String(geteuid()).utf8).map { String($0, radix: 16) }.joined())\r\n"))
        #expect(text.contains("\r\nBEGIN\r\n"))
        #expect(text.contains("Hello"))
        #expect(text.contains("EchoString"))
        // Hello first, then the call: the bus needs Hello before any other message.
        let hello = try #require(text.range(of: "Hello"))
        let echo = try #require(text.range(of: "EchoString"))
        #expect(hello.lowerBound < echo.lowerBound)
    }

    @Test func aRefusedAuthenticationIsSaid() throws {
        let stand = try StandInBus(abstract: true)
        let link = try #require(try BusCallLink.open(address: stand.address))
        stand.respond { received in received.count > 1 ? .send(Data("REJECTED EXTERNAL\r\n".utf8)) : nil }
        let call = try BusMessage.methodCall(
            destination: "io.test.X", path: "/", interface: "io.test.X", member: "Y")
        #expect {
            try link.call(call, timeoutMilliseconds: 5000)
        } throws: { error in
            guard let error = error as? BusError else { return false }
            return error.name == "org.freedesktop.DBus.Error.AuthFailed"
                && error.message.contains("REJECTED EXTERNAL")
        }
        #expect(!link.isAccepted)
    }

    /// A bus that takes the socket and never answers costs the call its timeout, no more.
    @Test func aSilentBusCostsTheTimeout() throws {
        let stand = try StandInBus()
        let link = try #require(try BusCallLink.open(address: stand.address))
        let call = try BusMessage.methodCall(
            destination: "io.test.X", path: "/", interface: "io.test.X", member: "Y")
        let start = MonotonicClock.milliseconds()
        #expect(
            throws: BusError(name: BusErrorName.noReply, message: "the bus did not answer within the timeout")
        ) {
            try link.call(call, timeoutMilliseconds: 200)
        }
        let took = MonotonicClock.milliseconds() - start
        #expect(took >= 200 && took < 3000, "took \(took) ms")
        #expect(!link.isAccepted)
    }

    /// Addresses that are not a Unix socket the link can reach are left to libdbus.
    @Test func otherAddressesAreLeftToLibdbus() throws {
        let directory = try TemporaryDirectory()
        for address in [
            "tcp:host=127.0.0.1,port=1", "unix:path=\(directory.appending("none"))", "unix:tmpdir=/tmp",
            "autolaunch:", "unix:path=/" + String(repeating: "x", count: 200), "not an address",
        ] {
            #expect(try BusCallLink.open(address: address) == nil, "\(address)")
        }
    }
}
