// SPDX-License-Identifier: MIT
import DBus
import TestSupport
import Testing

/// Everything libdbus would abort the process on must come back as a `BusError` instead; the
/// test process surviving these calls is half of what they prove.
@Suite struct ValidationTests {
    /// A fresh signal message to append to.
    func message() throws -> BusMessage {
        try BusMessage.signal(path: "/io/test", interface: "io.test.Iface", member: "Something")
    }

    /// Expects `body` to throw a `BusError` named `name` whose message contains `fragment`.
    @discardableResult
    func expectError(
        _ name: String = BusErrorName.invalidArgs, containing fragment: String = "",
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) -> BusError? {
        let error = #expect(throws: BusError.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.name == name, sourceLocation: sourceLocation)
        if !fragment.isEmpty {
            #expect(
                error?.message.contains(fragment) == true, "\(error?.message ?? "")",
                sourceLocation: sourceLocation)
        }
        return error
    }

    @Test func stringsWithNULAreRejectedAndNothingIsAppended() throws {
        let message = try message()
        try message.append([.string("before")])
        expectError(containing: "NUL") { try message.append([.int32(1), .string("a\0b")]) }
        expectError(containing: "NUL") {
            try message.append([.array(elementSignature: "s", [.string("\0")])])
        }
        expectError(containing: "NUL") { try message.append([.variant(.string("x\0"))]) }
        expectError(containing: "NUL") {
            try message.append([
                .dictionary(keySignature: "s", valueSignature: "v", [(.string("k\0"), .variant(.byte(1)))])
            ])
        }
        // A failed append leaves the body as it was: still one string.
        #expect(message.signature == "s")
        #expect(try message.readValues() == [.string("before")])
    }

    @Test(arguments: ["", "a", "/a/", "//", "/a//b", "/a-b", "/a b", "/é", "a/b", "/a/b/"])
    func invalidObjectPathsAreRejected(path: String) throws {
        expectError(containing: "object path") { try message().append([.objectPath(path)]) }
        expectError(containing: "object path") {
            _ = try BusMessage.methodCall(destination: nil, path: path, interface: nil, member: "M")
        }
        expectError(containing: "object path") {
            _ = try BusMessage.signal(path: path, interface: "a.b", member: "M")
        }
    }

    @Test(arguments: ["/", "/a", "/a/b_c/D9", "/_/0"])
    func validObjectPathsAreAccepted(path: String) throws {
        let message = try message()
        try message.append([.objectPath(path)])
        #expect(try message.readValues() == [.objectPath(path)])
    }

    @Test func invalidNamesAreRejected() throws {
        let long = "a." + String(repeating: "b", count: 254)
        for interface in ["", "nodots", "a..b", ".a.b", "a.b.", "1a.b", "a.1b", "a.b-c", "a.b c", long] {
            expectError(containing: "interface name") {
                _ = try BusMessage.signal(path: "/", interface: interface, member: "M")
            }
        }
        for member in ["", "1abc", "a.b", "a-b", "a b", String(repeating: "m", count: 256)] {
            expectError(containing: "name") {
                _ = try BusMessage.methodCall(destination: nil, path: "/", interface: nil, member: member)
            }
        }
        // libdbus's rules decide (`dbus_validate_bus_name`); they let a bare ":" pass, which the
        // bus then answers as a name nobody owns.
        for destination in ["", "nodots", "a..b", "1a.b", ":1..2", "a.b!", long] {
            expectError(containing: "bus name") {
                _ = try BusMessage.methodCall(
                    destination: destination, path: "/", interface: nil, member: "M")
            }
        }
        // Unique names may have elements that start with a digit; well-known names may hold "-".
        _ = try BusMessage.methodCall(destination: ":1.42", path: "/", interface: nil, member: "M")
        _ = try BusMessage.methodCall(
            destination: "org.example-x.App", path: "/", interface: "a.b", member: "M")
        // The names libdbus reserves for itself make the bus disconnect the sender.
        expectError(containing: "reserved") {
            _ = try BusMessage.signal(path: "/", interface: "org.freedesktop.DBus.Local", member: "M")
        }
        expectError(containing: "reserved") {
            _ = try BusMessage.signal(path: "/org/freedesktop/DBus/Local", interface: "a.b", member: "M")
        }
    }

    @Test func invalidErrorRepliesAreRejected() throws {
        let bus = try PrivateBus()
        let connection = try BusConnection.connect(address: bus.address)
        let call = try BusMessage.methodCall(destination: "a.b", path: "/", interface: nil, member: "M")
        // A reply names its call's serial, which a call only gets when it is sent.
        expectError(containing: "serial") { _ = try BusMessage.methodReturn(replyingTo: call) }
        expectError(containing: "serial") {
            _ = try BusMessage.error(replyingTo: call, name: "a.b.Error", message: "m")
        }
        try call.setNoReplyExpected(true)
        try connection.send(call)
        expectError(containing: "error name") {
            _ = try BusMessage.error(replyingTo: call, name: "Bad", message: "m")
        }
        expectError(containing: "NUL") {
            _ = try BusMessage.error(replyingTo: call, name: "a.b.Error", message: "m\0")
        }
        // Only calls can be answered.
        expectError(containing: "method call") { _ = try BusMessage.methodReturn(replyingTo: try message()) }
        let error = try BusMessage.error(replyingTo: call, name: "a.b.Error", message: "what went wrong")
        #expect(error.type == .error)
        #expect(error.errorName == "a.b.Error")
        #expect(error.busError == BusError(name: "a.b.Error", message: "what went wrong"))
    }

    @Test(arguments: [
        "(", ")", "a", "(a)", "()", "{sv}", "a{vs}", "a{s}", "a{svv}", "a{sv", "a{}", "z", "aaz", "(ii",
        "a(}",
        String(repeating: "a", count: 33) + "y",
        String(repeating: "(", count: 33) + "y" + String(repeating: ")", count: 33),
        String(repeating: "y", count: 256),
    ])
    func invalidSignaturesAreRejected(signature: String) throws {
        expectError(containing: "signature") { try message().append([.signature(signature)]) }
        expectError(containing: "signature") {
            try message().append([.array(elementSignature: signature, [])])
        }
    }

    @Test(arguments: [
        "", "y", "a{sv}", "(ii)", "a(ts)", "aav", "a{ta{sv}}", "v", "h", "(y(y(y)))",
        String(repeating: "a", count: 32) + "y",
        String(repeating: "(", count: 32) + "y" + String(repeating: ")", count: 32),
        String(repeating: "y", count: 255),
    ])
    func validSignaturesAreAccepted(signature: String) throws {
        let message = try message()
        try message.append([.signature(signature)])
        #expect(try message.readValues() == [.signature(signature)])
    }

    @Test func valuesMustMatchTheirDeclaredContainerTypes() throws {
        expectError(containing: "\"s\"") {
            try message().append([.array(elementSignature: "s", [.int32(1)])])
        }
        expectError(containing: "signature") { try message().append([.array(elementSignature: "{sv}", [])]) }
        expectError(containing: "\"as\"") {
            try message().append([.array(elementSignature: "as", [.array(elementSignature: "i", [])])])
        }
        expectError(containing: "dictionary key") {
            try message().append([.dictionary(keySignature: "v", valueSignature: "s", [])])
        }
        expectError(containing: "\"s\"") {
            try message().append([
                .dictionary(keySignature: "s", valueSignature: "v", [(.int32(1), .variant(.byte(1)))])
            ])
        }
        expectError(containing: "no fields") { try message().append([.structure([])]) }
        expectError(BusErrorName.notSupported, containing: "not supported") {
            try message().append([.array(elementSignature: "h", [])])
        }
    }

    @Test func nestingBeyondTheBusLimitIsRefused() throws {
        func nested(_ depth: Int) -> BusValue {
            (0..<depth).reduce(BusValue.int32(1)) { inner, _ in .variant(inner) }
        }
        let message = try message()
        try message.append([nested(64)])
        #expect(try message.readValues() == [nested(64)])
        expectError(BusErrorName.limitsExceeded, containing: "nested") {
            try self.message().append([nested(65)])
        }
        // A struct holding an array of structs adds two levels per step (the array's element,
        // then the struct): 2 variants + 2 × 30 + 1 = 63 passes, 2 + 2 × 31 + 1 = 65 does not.
        func structs(_ depth: Int) -> BusValue {
            (0..<depth).reduce(BusValue.structure([.byte(1)])) { inner, _ in
                .structure([.array(elementSignature: inner.signature, [inner])])
            }
        }
        try self.message().append([.variant(.variant(structs(30)))])
        expectError(BusErrorName.limitsExceeded) {
            try self.message().append([.variant(.variant(structs(31)))])
        }
        // The bus does not descend into arrays of fixed-size values, so they add no level there.
        func wrapped(_ inner: BusValue) -> BusValue { (0..<64).reduce(inner) { value, _ in .variant(value) } }
        try self.message().append([wrapped(.array(elementSignature: "y", [.byte(1)]))])
        try self.message().append([wrapped(.array(elementSignature: "s", []))])
        expectError(BusErrorName.limitsExceeded) {
            try self.message().append([wrapped(.array(elementSignature: "s", [.string("x")]))])
        }
    }

    @Test func arraysAndMessagesOverTheProtocolLimitsAreRefused() throws {
        let mebibyte = String(repeating: "x", count: 1 << 20)
        // 65 strings of 1 MiB: an array over 64 MiB, which libdbus would abort on.
        expectError(BusErrorName.limitsExceeded, containing: "array") {
            try self.message().append([
                .array(elementSignature: "s", Array(repeating: .string(mebibyte), count: 65))
            ])
        }
        // 130 top-level strings of 1 MiB: a message over 128 MiB, which the bus would reject.
        let message = try message()
        expectError(BusErrorName.limitsExceeded, containing: "message") {
            try message.append(Array(repeating: .string(mebibyte), count: 130))
        }
        #expect(message.signature == "")
        expectError(BusErrorName.limitsExceeded, containing: "signature") {
            try message.append(Array(repeating: .byte(1), count: 256))
        }
    }

    @Test func sentAndReceivedMessagesAreReadOnly() throws {
        let bus = try PrivateBus()
        let connection = try BusConnection.connect(address: bus.address)
        let message = try message()
        try connection.send(message)
        expectError(containing: "sent") { try message.append([.byte(1)]) }
        expectError(containing: "sent") { try message.setNoReplyExpected(true) }
        let call = try BusMessage.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus",
            member: "GetId")
        let reply = try connection.call(call, timeoutMilliseconds: 5000)
        #expect(reply.type == .methodReturn)
        #expect(reply.replySerial == call.serial)
        expectError(containing: "received") { try reply.append([.byte(1)]) }
        expectError(containing: "timeout") {
            let again = try BusMessage.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: nil,
                member: "GetId")
            _ = try connection.call(again, timeoutMilliseconds: -5)
        }
        func quietCall() throws -> BusMessage {
            let quiet = try BusMessage.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: nil,
                member: "GetId")
            try quiet.setNoReplyExpected(true)
            return quiet
        }
        expectError(containing: "no reply") {
            _ = try connection.call(quietCall(), timeoutMilliseconds: 1000)
        }
        expectError(containing: "no reply") {
            _ = try connection.call(quietCall(), timeoutMilliseconds: 1000) { _ in }
        }
        expectError(containing: "method call") {
            _ = try connection.call(self.message(), timeoutMilliseconds: 1000)
        }
    }

    @Test func badAddressesAreErrorsNotCrashes() throws {
        expectError("org.freedesktop.DBus.Error.BadAddress") {
            _ = try BusConnection.connect(address: "nonsense")
        }
        expectError(containing: "NUL") { _ = try BusConnection.connect(address: "unix:path=/x\0") }
        let refused = #expect(throws: BusError.self) {
            _ = try BusConnection.connect(address: "unix:path=/nonexistent/cliptab-test-socket")
        }
        #expect(refused?.name.hasPrefix("org.freedesktop.DBus.Error.") == true)
    }
}
