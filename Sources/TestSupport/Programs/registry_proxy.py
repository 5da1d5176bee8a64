# SPDX-License-Identifier: MIT
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
