// SPDX-License-Identifier: MIT
import Posix

/// A Wayland socket in a `HeadlessSway` session through which the compositor looks as if it
/// had no global of one interface: a small proxy (Python) that passes every message and file
/// descriptor both ways but drops the registry's announcement of that interface.
///
/// It stands in for a compositor without, say, `zwp_virtual_keyboard_manager_v1` (KWin,
/// GNOME, a sandbox that filters globals) while keeping sway's data-control.
public final class GlobalHidingProxy {
    /// The proxy's socket: a `WAYLAND_DISPLAY` (absolute path).
    public let socketPath: String
    /// The proxy process.
    public let process: ChildProcess

    /// Starts the proxy for `sway`, hiding `interface`; returns once it listens.
    public init(_ sway: HeadlessSway, hiding interface: String) throws {
        socketPath = "\(sway.runtimeDirectory)/hiding-\(interface)"
        process = try sway.spawn(
            "/usr/bin/python3", ["-c", Self.script, sway.socketPath, socketPath, interface], stdout: .pipe,
            stderr: .null)
        guard process.readLine(timeoutMilliseconds: 10_000) == "ready" else {
            process.terminate(graceMilliseconds: 500)
            throw FixtureError("the Wayland proxy did not start")
        }
    }

    deinit { process.terminate(graceMilliseconds: 500) }

    /// The proxy: one upstream connection per client; messages are split on their size
    /// field so that a `wl_registry.global` of the hidden interface can be left out (the
    /// registries are the ids the client gave `wl_display.get_registry`).
    private static let script = #"""
        import os, socket, struct, sys, select, array
        upstream_path, listen_path, hidden = sys.argv[1], sys.argv[2], sys.argv[3].encode()
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
                    if 'client' in st and opcode == 0 and obj in state[st['client']]['registries']:
                        length = struct.unpack('<I', msg[12:16])[0]
                        if msg[16:16 + length - 1] == hidden:
                            continue
                    out += msg
                st['buf'] = buf
                send(other, out, fds)
        """#
}
