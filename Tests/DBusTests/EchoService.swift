// SPDX-License-Identifier: MIT
import DBus
import Glibc
import Posix
import TestSupport

/// An error a handler throws to choose its D-Bus error.
struct EchoFailure: BusErrorConvertible {
    let busErrorName: String
    let busErrorMessage: String
}

/// A plain Swift error with no D-Bus name.
struct PlainFailure: Error, CustomStringConvertible {
    var description: String { "plain failure 42" }
}

/// The state of the echo object, on the server thread.
final class EchoState {
    /// The readwrite property `Name`.
    var name = "initial"
    /// How many calls reached `Count`-counting methods.
    var count: UInt32 = 0
    /// Deferred calls and when to answer them.
    var deferred: [(call: BusMethodCall, due: UInt64, error: Bool)] = []
}

/// The test service: bus name, path, interface and its declaration.
enum Echo {
    static let busName = "io.test.Echo"
    static let path = "/io/test/Echo"
    static let interface = "io.test.Echo1"
    static let changed = BusSignal(
        name: "Changed",
        arguments: [BusArgument(name: "text", signature: "s"), BusArgument(name: "count", signature: "u")])

    /// The declaration of `io.test.Echo1`; `connection` is used by handlers that emit signals.
    static func interfaces(state: EchoState, connection: BusConnection?) -> [BusInterface] {
        func echo(_ name: String, _ signature: String) -> BusMethod {
            BusMethod(
                name: name, inArguments: [BusArgument(name: "value", signature: signature)],
                outArguments: [BusArgument(name: "value", signature: signature)]
            ) { call in .values(call.arguments) }
        }
        let all = "ybnqiuxtdsog"
        weak let weakConnection = connection
        return [
            BusInterface(
                name: interface,
                methods: [
                    echo("EchoVariant", "v"),
                    echo("EchoString", "s"),
                    echo("EchoStructs", "a(ts)"),
                    echo("EchoDict", "a{sv}"),
                    BusMethod(
                        name: "EchoAll",
                        inArguments: all.map { BusArgument(name: "arg_\($0)", signature: String($0)) },
                        outArguments: all.map { BusArgument(name: "out_\($0)", signature: String($0)) }
                    ) { call in .values(call.arguments) },
                    BusMethod(
                        name: "Fail",
                        inArguments: [
                            BusArgument(name: "name", signature: "s"),
                            BusArgument(name: "message", signature: "s"),
                        ]
                    ) { call in
                        guard case .string(let name) = call.arguments[0],
                            case .string(let message) = call.arguments[1]
                        else { return .empty }
                        throw EchoFailure(busErrorName: name, busErrorMessage: message)
                    },
                    BusMethod(name: "FailPlain") { _ in throw PlainFailure() },
                    BusMethod(name: "BadReply", outArguments: [BusArgument(name: "text", signature: "s")]) {
                        _ in
                        .values([.int32(1)])
                    },
                    BusMethod(name: "BadString", outArguments: [BusArgument(name: "text", signature: "s")]) {
                        _ in
                        .values([.string("nul\0inside")])
                    },
                    BusMethod(
                        name: "Deferred", inArguments: [BusArgument(name: "text", signature: "s")],
                        outArguments: [BusArgument(name: "text", signature: "s")]
                    ) { call in
                        state.deferred.append((call, MonotonicClock.milliseconds() + 50, false))
                        return .deferred
                    },
                    BusMethod(name: "DeferredError", inArguments: [BusArgument(name: "text", signature: "s")])
                    {
                        call in
                        state.deferred.append((call, MonotonicClock.milliseconds() + 50, true))
                        return .deferred
                    },
                    BusMethod(name: "Forget", outArguments: [BusArgument(name: "text", signature: "s")]) {
                        _ in
                        .deferred
                    },
                    BusMethod(name: "Count", outArguments: [BusArgument(name: "count", signature: "u")]) {
                        _ in
                        state.count += 1
                        return .values([.uint32(state.count)])
                    },
                    BusMethod(name: "Emit", inArguments: [BusArgument(name: "text", signature: "s")]) {
                        call in
                        state.count += 1
                        try weakConnection?.emit(
                            changed, from: path, interface: interface,
                            values: [call.arguments[0], .uint32(state.count)])
                        return .empty
                    },
                ],
                signals: [changed],
                properties: [
                    BusProperty(
                        name: "Name", signature: "s", access: .readwrite, get: { .string(state.name) },
                        set: { value in
                            guard case .string(let text) = value else { return }
                            if text == "refuse" {
                                throw EchoFailure(
                                    busErrorName: "io.test.Echo1.Error.Refused", busErrorMessage: "no")
                            }
                            state.name = text
                            try weakConnection?.emitPropertiesChanged(
                                path: path, interface: interface, changed: ["Name": value])
                        }),
                    BusProperty(name: "Count", signature: "u", get: { .uint32(state.count) }),
                    BusProperty(name: "Broken", signature: "s", changeSignal: .const, get: { .int32(7) }),
                ]),
            BusInterface(
                name: "io.test.Other1",
                methods: [
                    BusMethod(name: "Hello", outArguments: [BusArgument(name: "greeting", signature: "s")]) {
                        _ in
                        .values([.string("hello from Other1")])
                    }
                ],
                properties: [
                    BusProperty(
                        name: "Ratio", signature: "d", changeSignal: .invalidates, get: { .double(0.5) })
                ]),
        ]
    }

    /// Registers the echo object on `connection` and answers its deferred calls from the loop.
    static func setUp(_ connection: BusConnection, _ loop: ServerLoop, _ report: ServerReport) throws {
        let state = EchoState()
        try connection.registerObject(
            path: path, interfaces: interfaces(state: state, connection: connection))
        loop.afterDispatch.append {
            let now = MonotonicClock.milliseconds()
            let due = state.deferred.filter { $0.due <= now }
            state.deferred.removeAll { $0.due <= now }
            for entry in due {
                guard case .string(let text) = entry.call.arguments[0] else { continue }
                do {
                    if entry.error {
                        try entry.call.replyError(
                            EchoFailure(
                                busErrorName: "io.test.Echo1.Error.Later", busErrorMessage: "later: \(text)"))
                    } else {
                        try entry.call.reply([.string("later: \(text)")])
                    }
                    report.note("answered \(text)")
                } catch {
                    report.note("reply failed: \(error)")
                }
            }
        }
    }
}

/// A private bus with the echo server on its own thread and a client connection for the test.
final class EchoFixture {
    let bus: PrivateBus
    let server: ServerThread
    let client: BusConnection

    init() throws {
        bus = try PrivateBus()
        server = try ServerThread(address: bus.address, name: Echo.busName, setup: Echo.setUp)
        client = try BusConnection.connect(address: bus.address)
    }

    deinit {
        client.close()
        server.stop()
    }

    /// A method call to the echo object.
    func message(
        _ member: String, _ values: [BusValue] = [], interface: String? = Echo.interface,
        path: String = Echo.path
    ) throws -> BusMessage {
        let message = try BusMessage.methodCall(
            destination: Echo.busName, path: path, interface: interface, member: member)
        try message.append(values)
        return message
    }

    /// Calls `member` and returns the reply's values.
    func call(
        _ member: String, _ values: [BusValue] = [], interface: String? = Echo.interface,
        path: String = Echo.path,
        timeout: Int32 = 10_000
    ) throws -> [BusValue] {
        try client.call(
            message(member, values, interface: interface, path: path), timeoutMilliseconds: timeout
        )
        .readValues()
    }

    /// Calls a method of `org.freedesktop.DBus.Properties` on the echo object.
    func properties(_ member: String, _ values: [BusValue]) throws -> [BusValue] {
        try call(member, values, interface: "org.freedesktop.DBus.Properties")
    }
}
