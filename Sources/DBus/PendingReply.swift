// SPDX-License-Identifier: MIT
internal import CDBus

/// The handler of one asynchronous call, run exactly once, whichever way the outcome comes.
///
/// libdbus alone loses calls at a disconnect: when it notices that the connection is gone, it
/// takes every pending call out of its table of awaited replies and queues a synthesized
/// `NoReply` error for each; dispatching that error then looks the call up in the same table,
/// finds nothing, and hands the error to the filters instead, so the call's notify function
/// never runs and, its timeout removed, nothing ever ends it. So the connection keeps its own
/// table by serial: its filter completes a call from a reply libdbus did not route, and once
/// the connection is gone and everything read is dispatched, it fails what is left.
final class PendingReply {
    /// The serial of the call, which its reply names.
    let serial: UInt32
    /// The connection that tracks this call (weak: the connection owns the table).
    private weak var connection: BusConnection?
    /// The handler until it runs (or the call is cancelled).
    private var handler: ((Result<BusMessage, BusError>) -> Void)?

    /// Makes the holder of `handler` for the call `serial` on `connection`.
    init(serial: UInt32, connection: BusConnection, handler: @escaping (Result<BusMessage, BusError>) -> Void)
    {
        self.serial = serial
        self.connection = connection
        self.handler = handler
    }

    /// True once the handler ran or the call was cancelled.
    var isFinished: Bool { handler == nil }

    /// Runs the handler with `message`: its error when it is an error reply.
    func complete(with message: BusMessage) {
        if let error = message.busError {
            complete(.failure(error))
        } else {
            complete(.success(message))
        }
    }

    /// Runs the handler with `result` unless it already ran.
    func complete(_ result: Result<BusMessage, BusError>) {
        guard let handler else { return }
        self.handler = nil
        connection?.untrack(self)
        handler(result)
    }

    /// Drops the handler without running it.
    func discard() {
        handler = nil
        connection?.untrack(self)
    }
}
