// SPDX-License-Identifier: MIT
import Posix

/// A Wayland socket in a `HeadlessCompositor` session through which the compositor's registry
/// looks different: a small proxy (Python) that passes every message and file descriptor
/// both ways but edits the registry's announcements of one interface.
///
/// Hiding stands in for a compositor without, say, `zwp_virtual_keyboard_manager_v1` (KWin,
/// GNOME, a sandbox that filters globals) while keeping sway's data-control. Renaming stands
/// in for a compositor with another name for the same protocol: `ext_data_control_v1` is
/// `zwlr_data_control_unstable_v1` version 2 standardized, request for request, event for
/// event and argument for argument, and no compositor here offers it under its own name.
public final class RegistryProxy {
    /// The proxy's socket: a `WAYLAND_DISPLAY` (absolute path).
    public let socketPath: String
    /// The proxy process.
    public let process: ChildProcess

    /// Starts the proxy for `sway`, hiding `interface`; returns once it listens.
    public convenience init(_ sway: HeadlessCompositor, hiding interface: String) throws {
        try self.init(sway, socketName: "hiding-\(interface)", arguments: ["hide", interface])
    }

    /// Starts the proxy for `sway`, announcing `interface` as `name` at `version` and binding
    /// the compositor's at `upstreamVersion` when a client binds `name`; returns once it
    /// listens.
    public convenience init(
        _ sway: HeadlessCompositor, renaming interface: String, upstreamVersion: UInt32, as name: String,
        version: UInt32
    ) throws {
        try self.init(
            sway, socketName: "renaming-\(interface)",
            arguments: ["rename", interface, String(upstreamVersion), name, String(version)])
    }

    private init(_ sway: HeadlessCompositor, socketName: String, arguments: [String]) throws {
        socketPath = "\(sway.runtimeDirectory)/\(socketName)"
        process = try sway.spawn(
            "/usr/bin/python3", ["-c", Self.script, sway.socketPath, socketPath] + arguments, stdout: .pipe,
            stderr: .null)
        guard process.readLine(timeoutMilliseconds: 10_000) == "ready" else {
            process.terminate(graceMilliseconds: 500)
            throw FixtureError("the Wayland proxy did not start")
        }
    }

    deinit { process.terminate(graceMilliseconds: 500) }

    /// The proxy: one upstream connection per client; messages are split on their size
    /// field so that a `wl_registry.global` of the interface can be left out or rewritten,
    /// and a `wl_registry.bind` of the new name rewritten back (the registries are the ids
    /// the client gave `wl_display.get_registry`).
    private static let script = #"""
        import os, socket, struct, sys, select, array
        upstream_path, listen_path, mode = sys.argv[1], sys.argv[2], sys.argv[3]
        interface = sys.argv[4].encode()
        if mode == 'rename':
            upstream_version, name, version = int(sys.argv[5]), sys.argv[6].encode(), int(sys.argv[7])
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(listen_path); server.listen(8)
        print('ready', flush=True)
        FDS = 28
        def recv(sock):
            fds = array.array('i')
            data, anc, flags, _ = sock.recvmsg(65536, socket.CMSG_SPACE(FDS * 4))
            for level, kind, payload in anc:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    fds.frombytes(payload[:len(payload) - len(payload) % 4])
            return data, list(fds)
        def send(sock, data, fds):
            anc = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', fds))] if fds else []
            while data:
                n = sock.sendmsg([data], anc); data = data[n:]; anc = []
            for fd in fds: os.close(fd)
        def string_at(msg, offset):
            # A wire string: its length with the NUL, the bytes, padding to 4; (text, next offset).
            length = struct.unpack('<I', msg[offset:offset + 4])[0]
            return msg[offset + 4:offset + 4 + length - 1], offset + 4 + (length + 3) // 4 * 4
        def wire_string(text):
            body = text + b'\0'
            return struct.pack('<I', len(body)) + body + b'\0' * (-len(body) % 4)
        def message(obj, opcode, body):
            return struct.pack('<II', obj, (8 + len(body)) << 16 | opcode) + body
        def edited(msg, obj, opcode, st):
            # The message as the other side should see it, or None to leave it out.
            if 'client' in st and opcode == 0 and obj in state[st['client']]['registries']:
                # wl_registry.global(name, interface, version)
                text, end = string_at(msg, 12)
                if text != interface:
                    return msg
                if mode == 'hide':
                    return None
                announced = min(struct.unpack('<I', msg[end:end + 4])[0], version)
                return message(obj, 0, msg[8:12] + wire_string(name) + struct.pack('<I', announced))
            if mode == 'rename' and 'registries' in st and opcode == 0 and obj in st['registries']:
                # wl_registry.bind(name, interface, version, new id)
                text, end = string_at(msg, 12)
                if text != name:
                    return msg
                return message(obj, 0, msg[8:12] + wire_string(interface)
                               + struct.pack('<I', upstream_version) + msg[end + 4:end + 8])
            return msg
        pairs = {}
        state = {}
        while True:
            ready, _, _ = select.select([server] + list(pairs), [], [])
            for sock in ready:
                if sock is server:
                    client, _ = server.accept()
                    up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); up.connect(upstream_path)
                    pairs[client] = up; pairs[up] = client
                    state[client] = {'registries': set(), 'buf': b''}; state[up] = {'buf': b'', 'client': client}
                    continue
                try:
                    data, fds = recv(sock)
                except OSError:
                    data, fds = b'', []
                other = pairs.get(sock)
                if not data:
                    for s in (sock, other):
                        pairs.pop(s, None); state.pop(s, None); s.close()
                    continue
                st = state[sock]
                st['buf'] += data
                out = b''
                buf = st['buf']
                while len(buf) >= 8:
                    obj, word = struct.unpack('<II', buf[:8]); size = word >> 16; opcode = word & 0xffff
                    if len(buf) < size: break
                    msg = buf[:size]; buf = buf[size:]
                    if 'registries' in st and obj == 1 and opcode == 1:
                        st['registries'].add(struct.unpack('<I', msg[8:12])[0])
                    msg = edited(msg, obj, opcode, st)
                    if msg is not None:
                        out += msg
                st['buf'] = buf
                send(other, out, fds)
        """#
}
