// SPDX-License-Identifier: MIT
import DBus

/// What the daemon's clients of the XDG desktop portal share: the portal's names, the calls
/// that answer through a Request object's `Response` signal, the match rules of those
/// answers, and the reading of the `a{sv}` results.
///
/// A step's Response comes at a path the spec predicts from the connection's unique name and
/// the call's `handle_token`; each client matches its own tokens' paths (a prefix of its
/// own), so that the RemoteDesktop session and the GlobalShortcuts binder share the
/// connection without taking each other's answers.
enum PortalCalls {
    /// The portal's bus name.
    static let busName = "org.freedesktop.portal.Desktop"
    /// The portal's object.
    static let objectPath = "/org/freedesktop/portal/desktop"
    /// The Request objects' interface.
    static let requestInterface = "org.freedesktop.portal.Request"
    /// The Session objects' interface.
    static let sessionInterface = "org.freedesktop.portal.Session"
    /// How long a call may take to answer (the Request object, not a dialog).
    static let callTimeoutMilliseconds: Int32 = 5_000

    /// Calls `member` of `interface` with `arguments` and the options `extra` after a
    /// `handle_token` of `token`; returns the Request path the Response is expected at.
    ///
    /// `answered` gets the call's own reply: the path the portal named (a portal older than
    /// the predicted paths names its own) and the portal's unique name, or the error it
    /// answered with.
    static func ask(
        _ bus: BusConnection, interface: String, member: String, arguments: [BusValue], token: String,
        options extra: [(String, BusValue)],
        answered: @escaping (Result<(named: String?, portal: String?), BusError>) -> Void
    ) throws -> String {
        let message = try BusMessage.methodCall(
            destination: busName, path: objectPath, interface: interface, member: member)
        try message.append(arguments + [options([("handle_token", .string(token))] + extra)])
        try bus.call(message, timeoutMilliseconds: callTimeoutMilliseconds) { result in
            switch result {
            case .success(let reply):
                guard case .objectPath(let named)? = try? reply.readValues().first else {
                    return answered(.success((nil, reply.sender)))
                }
                answered(.success((named, reply.sender)))
            case .failure(let error): answered(.failure(error))
            }
        }
        return requestPath(bus, token: token)
    }

    /// The path of the Request of `token` on `bus`'s connection.
    static func requestPath(_ bus: BusConnection, token: String) -> String {
        objectPath + "/request/" + senderToken(bus) + "/" + token
    }

    /// Adds `rules` to the connection without waiting: the bus daemon handles them before
    /// the calls sent after them.
    static func addMatches(_ rules: [String], on bus: BusConnection) throws {
        for rule in rules {
            let message = try BusMessage.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "AddMatch")
            try message.append([.string(rule)])
            try bus.call(message, timeoutMilliseconds: callTimeoutMilliseconds) { result in
                if case .failure(let error) = result {
                    Log.line("the bus refused the match of the portal's answers: \(error)", level: .warning)
                }
            }
        }
    }

    /// The match rules of the Responses and session closings of `bus`'s connection.
    static func answerRules(_ bus: BusConnection) -> [String] {
        [
            "type='signal',sender='\(busName)',interface='\(requestInterface)',member='Response',"
                + "path_namespace='\(objectPath)/request/\(senderToken(bus))'",
            "type='signal',sender='\(busName)',interface='\(sessionInterface)',member='Closed',"
                + "path_namespace='\(objectPath)/session/\(senderToken(bus))'",
        ]
    }

    /// Asks the portal to close `session`, without waiting.
    static func close(_ session: String, on bus: BusConnection) {
        guard
            let message = try? BusMessage.methodCall(
                destination: busName, path: session, interface: sessionInterface, member: "Close")
        else { return }
        try? message.setNoReplyExpected(true)
        // A portal that left is not started again just to close what it no longer has.
        try? message.setAutoStart(false)
        _ = try? bus.send(message)
    }

    /// True for the `NameOwnerChanged` that says `owner` left the bus.
    static func isDeparture(of owner: String?, _ message: BusMessage) -> Bool {
        guard let owner, message.member == "NameOwnerChanged", message.sender == "org.freedesktop.DBus",
            let values = try? message.readValues(), values.count == 3, case .string(let name) = values[0],
            case .string("") = values[2]
        else { return false }
        return name == owner
    }

    /// The code and results of a Response signal.
    static func response(_ message: BusMessage) -> (code: UInt32, results: BusValue)? {
        guard let values = try? message.readValues(), values.count == 2, case .uint32(let code) = values[0]
        else {
            return nil
        }
        return (code, values[1])
    }

    // MARK: - Values

    /// The connection's unique name as the portal puts it in paths: no ':', '.' as '_'.
    static func senderToken(_ bus: BusConnection) -> String {
        String(bus.uniqueName.drop { $0 == ":" }.map { $0 == "." ? "_" : $0 })
    }

    /// An `a{sv}` of `entries`.
    static func options(_ entries: [(String, BusValue)]) -> BusValue {
        .dictionary(keySignature: "s", valueSignature: "v", entries.map { (.string($0.0), .variant($0.1)) })
    }

    /// The value under `key` in the `a{sv}` `results`, still in its variant.
    static func value(_ key: String, in results: BusValue) -> BusValue? {
        guard case .dictionary(_, _, let entries) = results else { return nil }
        return entries.first { $0.0 == .string(key) }?.1
    }

    /// The text (a string or an object path) under `key` in `results`.
    static func entry(_ key: String, in results: BusValue) -> String? {
        switch value(key, in: results) {
        case .variant(.string(let text))?, .variant(.objectPath(let text))?: return text.isEmpty ? nil : text
        default: return nil
        }
    }
}
