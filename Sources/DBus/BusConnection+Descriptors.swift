// SPDX-License-Identifier: MIT
internal import CDBus

/// Unix file descriptors that arrive with messages: this library sends and reads none (a
/// `BusValue` holds no `h`), so a connection keeps as few as libdbus allows, for as short a
/// time as it can.
///
/// Each received descriptor takes a slot of the process's descriptor table until its
/// message is freed. When the table is full, the kernel drops the descriptors of the next
/// message (`MSG_CTRUNC`), and libdbus, which cannot recover them, closes the connection: a
/// daemon under systemd's soft limit of 1,024 lost its bus to 100 calls carrying 16 each.
extension BusConnection {
    /// The most descriptors libdbus holds in messages read and not yet dispatched before it
    /// stops reading the socket (its own default, 4,096, is past a user service's 1,024).
    ///
    /// libdbus reads on while it holds fewer, so a connection holds at most this plus one
    /// message's: at most `maximumReceivedUnixFDs + maximumUnixFDsPerMessage - 1`.
    public static let maximumReceivedUnixFDs = 64

    /// The most descriptors one message may carry: the kernel's limit for one message
    /// (`SCM_MAX_FD`).
    ///
    /// libdbus's default is dbus-daemon's (16), but libdbus treats a message with more as a
    /// broken stream and closes the connection: a bus that passes more (the kernel allows
    /// 253) would let one call end it. With the kernel's limit, any message the bus forwards
    /// is read, and refused.
    public static let maximumUnixFDsPerMessage = 253

    /// Sets libdbus's bounds on received descriptors.
    func limitReceivedDescriptors() {
        withUnsafeHandle { handle in
            dbus_connection_set_max_message_unix_fds(handle, Self.maximumUnixFDsPerMessage)
            dbus_connection_set_max_received_unix_fds(handle, Self.maximumReceivedUnixFDs)
        }
    }

    /// Takes a method call or a signal that carries descriptors out of the dispatch.
    ///
    /// libdbus then frees it, and so closes its descriptors, as soon as the filter returns;
    /// a call that wants a reply is answered `NotSupported`. True when `raw` was taken.
    /// Replies go on to the calls that wait for them (the caller frees them when it reads
    /// them); no handler or queue ever keeps a message with descriptors.
    func refuseDescriptors(_ raw: OpaquePointer) -> Bool {
        guard dbus_message_contains_unix_fds(raw) != 0 else { return false }
        let type = dbus_message_get_type(raw)
        guard type == DBUS_MESSAGE_TYPE_METHOD_CALL || type == DBUS_MESSAGE_TYPE_SIGNAL else { return false }
        guard type == DBUS_MESSAGE_TYPE_METHOD_CALL, dbus_message_get_no_reply(raw) == 0 else { return true }
        if let reply = try? BusMessage.error(
            replyingTo: BusMessage.retaining(raw), name: BusErrorName.notSupported,
            message: "this service takes no Unix file descriptors (none of its methods has an \"h\" "
                + "argument); the call's descriptors were closed unread: call again without them")
        {
            _ = try? send(reply)
        }
        return true
    }
}
