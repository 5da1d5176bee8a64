// SPDX-License-Identifier: MIT
import DBus
import Posix
import TestSupport
import Testing

/// Ownership of well-known names, as the daemon's single-instance and `--replace` logic uses it.
@Suite struct NameTests {
    static let name = "io.test.Owned"

    /// Reads messages on `connection` until the signal `member` about `name` arrives (at most 5 s).
    func signal(_ member: String, about name: String, on connection: BusConnection) throws -> Bool {
        let deadline = MonotonicClock.milliseconds() + 5000
        while MonotonicClock.milliseconds() < deadline {
            guard let message = connection.readMessage(timeoutMilliseconds: 200) else { continue }
            if message.type == .signal, message.member == member, message.interface == "org.freedesktop.DBus",
                try message.readValues() == [.string(name)]
            {
                return true
            }
        }
        return false
    }

    @Test func aNameIsTakenOverOnlyWhenItsOwnerAllowsIt() throws {
        let bus = try PrivateBus()
        let first = try BusConnection.connect(address: bus.address)
        let second = try BusConnection.connect(address: bus.address)
        #expect(first.uniqueName.hasPrefix(":"))
        #expect(first.uniqueName != second.uniqueName)

        #expect(
            try first.requestName(Self.name, replaceExisting: false, allowReplacement: true, doNotQueue: true)
                == .primaryOwner)
        #expect(try signal("NameAcquired", about: Self.name, on: first))
        #expect(
            try first.requestName(Self.name, replaceExisting: false, allowReplacement: true, doNotQueue: true)
                == .alreadyOwner)
        #expect(
            try second.requestName(
                Self.name, replaceExisting: false, allowReplacement: false, doNotQueue: true) == .exists)
        #expect(
            try second.requestName(
                Self.name, replaceExisting: true, allowReplacement: false, doNotQueue: true) == .primaryOwner)
        #expect(try signal("NameLost", about: Self.name, on: first))
        #expect(try signal("NameAcquired", about: Self.name, on: second))

        // The new owner did not allow replacement, so the old one cannot take it back.
        #expect(
            try first.requestName(Self.name, replaceExisting: true, allowReplacement: true, doNotQueue: true)
                == .exists)
        #expect(
            try first.requestName(
                Self.name, replaceExisting: false, allowReplacement: true, doNotQueue: false) == .inQueue)
        #expect(try first.releaseName(Self.name) == .released)
        #expect(try first.releaseName(Self.name) == .notOwner)
        #expect(try second.releaseName(Self.name) == .released)
        #expect(try second.releaseName(Self.name) == .nonExistent)
    }

    @Test func invalidNamesAreRefusedBeforeTheBusSeesThem() throws {
        let bus = try PrivateBus()
        let connection = try BusConnection.connect(address: bus.address)
        for name in [":1.1", "nodots", "a..b", "1a.b", ""] {
            let error = #expect(throws: BusError.self) {
                _ = try connection.requestName(
                    name, replaceExisting: false, allowReplacement: false, doNotQueue: true)
            }
            #expect(error?.name == BusErrorName.invalidArgs)
            #expect(throws: BusError.self) { try connection.releaseName(name) }
        }
        // A name reserved by the bus itself is refused by the bus, as an error.
        let reserved = #expect(throws: BusError.self) {
            _ = try connection.requestName(
                "org.freedesktop.DBus", replaceExisting: false, allowReplacement: false, doNotQueue: true)
        }
        #expect(reserved?.name.hasPrefix("org.freedesktop.DBus.Error.") == true)
        #expect(throws: BusError.self) { try connection.addMatch("type='nonsense'") }
        #expect(connection.isConnected)
    }
}
