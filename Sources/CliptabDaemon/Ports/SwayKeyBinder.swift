// SPDX-License-Identifier: MIT
import Glibc
import Posix

/// The keys of `[keys]` added to sway's bindings at run time through its IPC (`SWAYSOCK`),
/// and removed at reload and exit.
///
/// Each key gets two bindings whose command is `nop`: one at the press and one at the
/// release (`--release`), each naming the binding's id; the binder subscribes to sway's
/// `binding` events on the same socket and reports the press and the release, with no
/// process started per press. A paste thus waits for the keys' release, as on X11.
public final class SwayKeyBinder: KeyBinder, PollSource {
    /// The word after `nop` that marks cliptabd's bindings.
    static let marker = "cliptab-key"
    /// The longest wait for one answer of sway, in milliseconds.
    static let answerMilliseconds = 2000

    private let socketPath: String
    private let events: (KeyEvent) -> Void
    private var fd: Int32 = -1
    /// What was read and not yet a whole message.
    private var input: [UInt8] = []
    /// The `bindsym` arguments (flags and keys) added, to remove them again.
    private var added: [String] = []
    /// Why the socket could not be used, for the states.
    private var failure: String?

    /// Connects to sway's socket at `socket`; `events` receives the presses and releases.
    public init(socket: String, events: @escaping (KeyEvent) -> Void) {
        socketPath = socket
        self.events = events
        connect()
    }

    deinit {
        unbindAll()
        if fd >= 0 { close(fd) }
    }

    /// Adds each request's bindings, after removing those added before.
    public func bind(_ requests: [KeyBindingRequest]) -> [String: KeyBindingState] {
        unbindAll()
        var states: [String: KeyBindingState] = [:]
        for request in requests {
            guard fd >= 0 else {
                states[request.id] = .notBound(
                    reason: "sway's IPC at \(socketPath) cannot be used: \(failure ?? "")")
                continue
            }
            let keys = Self.swayKeys(request.keys)
            var refusal: String?
            for (flags, word) in [("--no-repeat", "press"), ("--release", "release")] {
                let binding = "\(flags) \(keys)"
                if let error = command("bindsym \(binding) nop \(Self.marker) \(word) \(request.id)") {
                    refusal = error
                    break
                }
                added.append(binding)
            }
            states[request.id] =
                refusal.map { .notBound(reason: "sway refused \(request.keys): \($0)") } ?? .boundInSway
        }
        return states
    }

    /// Removes every binding added.
    public func unbindAll() {
        for binding in added where fd >= 0 { _ = command("unbindsym \(binding)") }
        added = []
    }

    /// The socket, for the binding events.
    public var pollDescriptor: Int32? { fd >= 0 ? fd : nil }

    /// Reads what sway sent and reports the bindings of cliptabd that ran.
    public func process(now: UInt64) {
        guard fd >= 0 else { return }
        readAvailable()
        while let message = takeMessage() { handle(message) }
    }

    /// None: sway's events wake the loop.
    public func nextDeadline() -> UInt64? { nil }

    // MARK: - The i3 IPC protocol

    private static let magic = Array("i3-ipc".utf8)
    private static let runCommand: UInt32 = 0
    private static let subscribe: UInt32 = 2
    private static let bindingEvent: UInt32 = 0x8000_0005

    /// `Super+Alt+I` as sway names it: `Mod4+Mod1+i`.
    static func swayKeys(_ keys: String) -> String {
        var parts = keys.split(separator: "+").map(String.init)
        let key = parts.removeLast()
        let modifiers = parts.map { part -> String in
            switch part.lowercased() {
            case "super": "Mod4"
            case "alt": "Mod1"
            case "ctrl": "Control"
            default: "Shift"
            }
        }
        return (modifiers + [key.count == 1 ? key.lowercased() : key]).joined(separator: "+")
    }

    private func connect() {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else {
            failure = "socket: \(String(cString: strerror(errno)))"
            return
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(socket)
            failure = "the path is too long for a socket"
            return
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            failure = "connect: \(String(cString: strerror(errno)))"
            close(socket)
            return
        }
        fd = socket
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        if let error = request(Self.subscribe, "[\"binding\"]") {
            failure = "subscribing to its binding events: \(error)"
            close(fd)
            fd = -1
        }
    }

    /// Runs a sway command; nil when sway ran it, else its error.
    private func command(_ text: String) -> String? { request(Self.runCommand, text) }

    /// Sends a request and waits (bounded) for its answer; nil when sway answered success.
    ///
    /// Events read meanwhile are handled.
    private func request(_ type: UInt32, _ payload: String) -> String? {
        let body = Array(payload.utf8)
        var message = Self.magic
        withUnsafeBytes(of: UInt32(body.count)) { message += $0 }
        withUnsafeBytes(of: type) { message += $0 }
        message += body
        var offset = 0
        let deadline = MonotonicClock.milliseconds() + UInt64(Self.answerMilliseconds)
        while offset < message.count {
            let written = message[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0 && (errno == EAGAIN || errno == EINTR) && wait(POLLOUT, until: deadline) {
                continue
            } else {
                return lose("writing to sway's socket failed")
            }
        }
        while true {
            while let answer = takeMessage() {
                if answer.type == type {
                    let text = String(decoding: answer.payload, as: UTF8.self)
                    return text.contains("\"success\": true") || text.contains("\"success\":true")
                        ? nil : Self.jsonString("error", in: text) ?? text
                }
                handle(answer)
            }
            guard wait(POLLIN, until: deadline) else { return lose("sway did not answer in time") }
            if !readAvailable() { return lose("sway closed its socket") }
        }
    }

    /// Waits for the socket to be ready for `events` until `deadline`.
    private func wait(_ events: Int32, until deadline: UInt64) -> Bool {
        let now = MonotonicClock.milliseconds()
        guard now < deadline else { return false }
        var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
        return poll(&entry, 1, Int32(deadline - now)) > 0
    }

    /// Reads what the socket holds; false once sway closed it.
    @discardableResult
    private func readAvailable() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while fd >= 0 {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                input += buffer[..<count]
                // sway's events are small; a flood is not kept beyond a bound.
                if input.count > 16 << 20 { _ = lose("sway sent more than 16 MiB at once") }
                continue
            }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return true }
            _ = lose("sway closed its socket")
            return false
        }
        return false
    }

    /// The next whole message read, if any.
    private func takeMessage() -> (type: UInt32, payload: [UInt8])? {
        guard input.count >= 14, Array(input[0..<6]) == Self.magic else { return nil }
        let length = input[6..<10].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        let type = input[10..<14].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        guard input.count >= 14 + Int(length) else { return nil }
        let payload = Array(input[14..<(14 + Int(length))])
        input.removeFirst(14 + Int(length))
        return (type, payload)
    }

    /// Reports a binding event of one of cliptabd's bindings.
    private func handle(_ message: (type: UInt32, payload: [UInt8])) {
        guard message.type == Self.bindingEvent,
            let command = Self.jsonString("command", in: String(decoding: message.payload, as: UTF8.self))
        else { return }
        let words = command.split(separator: " ").map(String.init)
        guard words.count == 4, words[0] == "nop", words[1] == Self.marker else { return }
        events(words[2] == "press" ? .pressed(id: words[3]) : .released(id: words[3]))
    }

    /// Closes the socket after a failure; returns the failure.
    private func lose(_ reason: String) -> String {
        if fd >= 0 { close(fd) }
        fd = -1
        failure = reason
        added = []
        input = []
        return reason
    }

    /// The string value of the first `"key"` in a JSON text (no full parse: sway's messages
    /// are known, and only cliptabd's own commands, with plain words, are acted on).
    static func jsonString(_ key: String, in text: String) -> String? {
        guard let keyRange = text.firstRange(of: "\"\(key)\"") else { return nil }
        var rest = text[keyRange.upperBound...].drop { $0 == " " || $0 == ":" || $0 == "\t" || $0 == "\n" }
        guard rest.first == "\"" else { return nil }
        rest = rest.dropFirst()
        var value = ""
        var escaped = false
        for character in rest {
            if escaped {
                value.append(character == "n" ? "\n" : character == "t" ? "\t" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return value
            } else {
                value.append(character)
            }
        }
        return nil
    }
}
