// SPDX-License-Identifier: MIT
import DBus
import Glibc
import Posix
import Testing

/// Dispatch of calls to a registered object, as a client on another connection sees it.
@Suite struct DispatchTests {
    /// Expects `body` to throw a `BusError` named `name` whose message contains every fragment.
    @discardableResult
    static func expectError(
        _ name: String, containing fragments: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) -> BusError? {
        let error = #expect(throws: BusError.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.name == name, "\(error?.description ?? "")", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(
                error?.message.contains(fragment) == true, "\(error?.message ?? "")",
                sourceLocation: sourceLocation)
        }
        return error
    }

    @Test func unknownMethodsAndInterfacesAreUnknownMethod() throws {
        let fixture = try EchoFixture()
        Self.expectError(BusErrorName.unknownMethod, containing: ["NoSuchMethod", Echo.interface]) {
            _ = try fixture.call("NoSuchMethod")
        }
        Self.expectError(BusErrorName.unknownMethod, containing: ["io.test.Nothing1"]) {
            _ = try fixture.call("EchoString", [.string("x")], interface: "io.test.Nothing1")
        }
        Self.expectError(BusErrorName.unknownMethod, containing: ["Nope"]) {
            _ = try fixture.call("Nope", interface: nil)
        }
        // A path nobody registered is answered by libdbus itself.
        let error = #expect(throws: BusError.self) {
            _ = try fixture.call("EchoString", [.string("x")], path: "/elsewhere")
        }
        #expect(error?.name.hasPrefix("org.freedesktop.DBus.Error.Unknown") == true)
    }

    @Test func aWrongSignatureIsInvalidArgsNamingBoth() throws {
        let fixture = try EchoFixture()
        Self.expectError(BusErrorName.invalidArgs, containing: ["\"s\"", "\"i\"", "EchoString"]) {
            _ = try fixture.call("EchoString", [.int32(4)])
        }
        Self.expectError(BusErrorName.invalidArgs, containing: ["\"s\"", "\"\""]) {
            _ = try fixture.call("EchoString")
        }
        Self.expectError(BusErrorName.invalidArgs, containing: ["\"ss\"", "\"sss\""]) {
            _ = try fixture.call("Fail", [.string("a"), .string("b"), .string("c")])
        }
    }

    @Test func thrownErrorsBecomeTheirDBusErrors() throws {
        let fixture = try EchoFixture()
        let custom = Self.expectError("io.test.Echo1.Error.Custom") {
            _ = try fixture.call(
                "Fail", [.string("io.test.Echo1.Error.Custom"), .string("what went wrong ✓")])
        }
        #expect(custom?.message == "what went wrong ✓")
        Self.expectError(BusErrorName.failed, containing: ["plain failure 42"]) {
            _ = try fixture.call("FailPlain")
        }
        // An error name libdbus would abort on becomes Failed, keeping the message.
        Self.expectError(BusErrorName.failed, containing: ["kept", "not a name"]) {
            _ = try fixture.call("Fail", [.string("not a name"), .string("kept")])
        }
    }

    @Test func repliesThatBreakTheDeclarationBecomeFailed() throws {
        let fixture = try EchoFixture()
        Self.expectError(BusErrorName.failed, containing: ["BadReply", "\"i\"", "\"s\""]) {
            _ = try fixture.call("BadReply")
        }
        Self.expectError(BusErrorName.failed, containing: ["NUL"]) { _ = try fixture.call("BadString") }
        // The server is still there.
        #expect(try fixture.call("EchoString", [.string("alive")]) == [.string("alive")])
    }

    @Test func deferredRepliesArriveLater() throws {
        let fixture = try EchoFixture()
        let start = MonotonicClock.milliseconds()
        #expect(try fixture.call("Deferred", [.string("one")]) == [.string("later: one")])
        #expect(MonotonicClock.milliseconds() - start >= 40)
        Self.expectError("io.test.Echo1.Error.Later", containing: ["later: two"]) {
            _ = try fixture.call("DeferredError", [.string("two")])
        }
        // A deferred call that the handler drops is answered, not left to time out.
        Self.expectError(BusErrorName.failed, containing: ["Forget", "without an answer"]) {
            _ = try fixture.call("Forget", timeout: 3000)
        }
        #expect(fixture.server.report.notes.withLock { $0 } == ["answered one", "answered two"])
    }

    @Test func deferredCallsAnsweredOutOfOrderReachTheirCallers() throws {
        let fixture = try EchoFixture()
        let slow = try fixture.message("Deferred", [.string("slow")])
        let slowSerial = try fixture.client.send(slow)
        let fast = try fixture.message("EchoString", [.string("fast")])
        let fastSerial = try fixture.client.send(fast)
        var replies: [UInt32: [BusValue]] = [:]
        var order: [UInt32] = []
        while replies.count < 2, let message = fixture.client.readMessage(timeoutMilliseconds: 5000) {
            guard message.type == .methodReturn else { continue }
            replies[message.replySerial] = try message.readValues()
            order.append(message.replySerial)
        }
        #expect(order == [fastSerial, slowSerial])
        #expect(replies[slowSerial] == [.string("later: slow")])
        #expect(replies[fastSerial] == [.string("fast")])
    }

    @Test func callsThatWantNoReplyGetNone() throws {
        let fixture = try EchoFixture()
        let quiet = try fixture.message("Count")
        try quiet.setNoReplyExpected(true)
        #expect(quiet.noReplyExpected)
        let quietSerial = try fixture.client.send(quiet)
        let quietError = try fixture.message("NoSuchMethod")
        try quietError.setNoReplyExpected(true)
        let quietErrorSerial = try fixture.client.send(quietError)
        let loud = try fixture.message("Count")
        let loudSerial = try fixture.client.send(loud)
        var answered: [UInt32] = []
        var count: [BusValue] = []
        while let message = fixture.client.readMessage(timeoutMilliseconds: 300) {
            guard message.type == .methodReturn || message.type == .error else { continue }
            answered.append(message.replySerial)
            if message.replySerial == loudSerial { count = try message.readValues() }
        }
        #expect(answered == [loudSerial])
        #expect(!answered.contains(quietSerial) && !answered.contains(quietErrorSerial))
        // The quiet call still ran: the loud one counted second.
        #expect(count == [.uint32(2)])
    }

    @Test func propertiesCanBeReadWrittenAndRefused() throws {
        let fixture = try EchoFixture()
        #expect(
            try fixture.properties("Get", [.string(Echo.interface), .string("Name")]) == [
                .variant(.string("initial"))
            ])
        // An empty interface name looks the property up in every interface.
        #expect(try fixture.properties("Get", [.string(""), .string("Ratio")]) == [.variant(.double(0.5))])
        let setReply = try fixture.properties(
            "Set", [.string(Echo.interface), .string("Name"), .variant(.string("renamed"))])
        #expect(setReply.isEmpty)
        #expect(
            try fixture.properties("Get", [.string(Echo.interface), .string("Name")]) == [
                .variant(.string("renamed"))
            ])

        Self.expectError(BusErrorName.unknownProperty, containing: ["Missing"]) {
            _ = try fixture.properties("Get", [.string(Echo.interface), .string("Missing")])
        }
        Self.expectError(BusErrorName.unknownInterface, containing: ["io.test.None1"]) {
            _ = try fixture.properties("Get", [.string("io.test.None1"), .string("Name")])
        }
        Self.expectError(BusErrorName.propertyReadOnly, containing: ["Count"]) {
            _ = try fixture.properties(
                "Set", [.string(Echo.interface), .string("Count"), .variant(.uint32(3))])
        }
        Self.expectError(BusErrorName.invalidArgs, containing: ["\"s\"", "\"i\""]) {
            _ = try fixture.properties(
                "Set", [.string(Echo.interface), .string("Name"), .variant(.int32(3))])
        }
        Self.expectError(BusErrorName.unknownProperty) {
            _ = try fixture.properties(
                "Set", [.string(Echo.interface), .string("Missing"), .variant(.int32(3))])
        }
        Self.expectError("io.test.Echo1.Error.Refused") {
            _ = try fixture.properties(
                "Set", [.string(Echo.interface), .string("Name"), .variant(.string("refuse"))])
        }
        Self.expectError(BusErrorName.failed, containing: ["Broken", "\"i\"", "\"s\""]) {
            _ = try fixture.properties("Get", [.string(Echo.interface), .string("Broken")])
        }
        Self.expectError(BusErrorName.invalidArgs) {
            _ = try fixture.properties("Get", [.string(Echo.interface)])
        }
        Self.expectError(BusErrorName.unknownInterface) {
            _ = try fixture.properties("GetAll", [.string("io.test.None1")])
        }
        let standard = try fixture.properties("GetAll", [.string("org.freedesktop.DBus.Peer")])
        #expect(standard == [.dictionary(keySignature: "s", valueSignature: "v", [])])
        let other = try fixture.properties("GetAll", [.string("io.test.Other1")])
        #expect(
            other == [
                .dictionary(
                    keySignature: "s", valueSignature: "v", [(.string("Ratio"), .variant(.double(0.5)))])
            ])
        // GetAll leaves out a property whose getter fails (Get reports that error).
        let echo = try fixture.properties("GetAll", [.string(Echo.interface)])
        #expect(
            echo == [
                .dictionary(
                    keySignature: "s", valueSignature: "v",
                    [
                        (.string("Name"), .variant(.string("renamed"))),
                        (.string("Count"), .variant(.uint32(0))),
                    ])
            ])
    }

    @Test func settingAPropertyEmitsPropertiesChanged() throws {
        let fixture = try EchoFixture()
        try fixture.client.addMatch(
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'")
        _ = try fixture.properties(
            "Set", [.string(Echo.interface), .string("Name"), .variant(.string("new"))])
        let signal = try #require(Self.nextSignal(on: fixture.client, member: "PropertiesChanged"))
        #expect(signal.path == Echo.path)
        #expect(signal.signature == "sa{sv}as")
        #expect(
            try signal.readValues() == [
                .string(Echo.interface),
                .dictionary(
                    keySignature: "s", valueSignature: "v", [(.string("Name"), .variant(.string("new")))]),
                .array(elementSignature: "s", []),
            ])
        // The helper checks names and types against the registered declaration.
        let server = fixture.client
        try server.registerObject(
            path: "/p", interfaces: Echo.interfaces(state: EchoState(), connection: nil))
        Self.expectError(BusErrorName.invalidArgs, containing: ["Nope"]) {
            try server.emitPropertiesChanged(
                path: "/p", interface: Echo.interface, changed: ["Nope": .int32(1)])
        }
        Self.expectError(BusErrorName.invalidArgs, containing: ["\"s\"", "\"i\""]) {
            try server.emitPropertiesChanged(
                path: "/p", interface: Echo.interface, changed: ["Name": .int32(1)])
        }
    }

    /// Reads messages until a signal named `member` arrives (at most `milliseconds`).
    static func nextSignal(on connection: BusConnection, member: String, milliseconds: UInt64 = 5000)
        -> BusMessage?
    {
        let deadline = MonotonicClock.milliseconds() + milliseconds
        while MonotonicClock.milliseconds() < deadline {
            guard let message = connection.readMessage(timeoutMilliseconds: 100) else { continue }
            if message.type == .signal && message.member == member { return message }
        }
        return nil
    }

    @Test func signalsReachClientsWithAMatchRule() throws {
        let fixture = try EchoFixture()
        try fixture.client.addMatch("type='signal',interface='\(Echo.interface)'")
        _ = try fixture.call("Emit", [.string("first")])
        _ = try fixture.call("Emit", [.string("second")])
        let first = try #require(Self.nextSignal(on: fixture.client, member: "Changed"))
        let second = try #require(Self.nextSignal(on: fixture.client, member: "Changed"))
        #expect(first.interface == Echo.interface)
        #expect(first.path == Echo.path)
        #expect(first.sender == fixture.server.uniqueName)
        #expect(try first.readValues() == [.string("first"), .uint32(1)])
        #expect(try second.readValues() == [.string("second"), .uint32(2)])
        // Values that do not match the declaration are refused before anything is sent.
        Self.expectError(BusErrorName.invalidArgs, containing: ["\"su\"", "\"s\""]) {
            try fixture.client.emit(
                Echo.changed, from: "/x", interface: Echo.interface, values: [.string("only")])
        }
        try fixture.client.removeMatch("type='signal',interface='\(Echo.interface)'")
        _ = try fixture.call("Emit", [.string("unseen")])
        #expect(Self.nextSignal(on: fixture.client, member: "Changed", milliseconds: 300) == nil)
    }

    @Test func signalHandlersSeeSignalsDuringDispatch() throws {
        let fixture = try EchoFixture()
        var seen: [String] = []
        fixture.client.addSignalHandler { message in
            if message.member == "Changed", case .string(let text)? = try? message.readValues().first {
                seen.append(text)
            }
        }
        try fixture.client.addMatch("type='signal',interface='\(Echo.interface)'")
        _ = try fixture.call("Emit", [.string("dispatched")])
        // The blocking call read the signal into the queue; dispatching hands it to the handler.
        let arrived = ServerThread.wait {
            BusPollTurn.run([fixture.client], timeoutMilliseconds: 10)
            return !seen.isEmpty
        }
        #expect(arrived)
        #expect(seen == ["dispatched"])
    }

    @Test func peerPingIsAnswered() throws {
        let fixture = try EchoFixture()
        #expect(try fixture.call("Ping", interface: "org.freedesktop.DBus.Peer").isEmpty)
        #expect(try fixture.call("Ping", interface: nil).isEmpty)
        let machine = try fixture.call("GetMachineId", interface: "org.freedesktop.DBus.Peer")
        guard case .string(let id)? = machine.first else {
            Issue.record("GetMachineId returned \(machine)")
            return
        }
        #expect(id.utf8.count == 32)
    }

    @Test func registrationRefusesBadDeclarations() throws {
        let fixture = try EchoFixture()
        let connection = fixture.client
        let noop = BusMethod(name: "M") { _ in .empty }
        Self.expectError(BusErrorName.invalidArgs, containing: ["object path"]) {
            try connection.registerObject(path: "bad", interfaces: [])
        }
        Self.expectError(BusErrorName.invalidArgs, containing: ["interface name"]) {
            try connection.registerObject(
                path: "/a", interfaces: [BusInterface(name: "single", methods: [noop])])
        }
        Self.expectError(BusErrorName.invalidArgs, containing: ["signature"]) {
            let method = BusMethod(name: "M", inArguments: [BusArgument(name: "x", signature: "ss")]) { _ in
                .empty
            }
            try connection.registerObject(
                path: "/a", interfaces: [BusInterface(name: "a.b", methods: [method])])
        }
        Self.expectError(BusErrorName.invalidArgs, containing: ["twice"]) {
            try connection.registerObject(
                path: "/a", interfaces: [BusInterface(name: "a.b", methods: [noop, noop])])
        }
        Self.expectError(BusErrorName.invalidArgs, containing: ["setter"]) {
            let property = BusProperty(name: "P", signature: "s", access: .readwrite, get: { .string("") })
            try connection.registerObject(
                path: "/a", interfaces: [BusInterface(name: "a.b", properties: [property])])
        }
        Self.expectError(BusErrorName.invalidArgs, containing: ["every object"]) {
            try connection.registerObject(
                path: "/a", interfaces: [BusInterface(name: "org.freedesktop.DBus.Properties")])
        }
        try connection.registerObject(path: "/a", interfaces: [BusInterface(name: "a.b", methods: [noop])])
        Self.expectError(BusErrorName.invalidArgs, containing: ["already"]) {
            try connection.registerObject(path: "/a", interfaces: [])
        }
        connection.unregisterObject(path: "/a")
        try connection.registerObject(path: "/a", interfaces: [])
    }
}
