// SPDX-License-Identifier: MIT

/// Method calls waiting to be served, one first-in first-out queue per sender, taken
/// round-robin (one call per sender per round) so that one sender's backlog delays only that
/// sender.
struct SenderQueues {
    /// One sender's waiting calls and what they weigh.
    private struct Queue {
        /// The calls with their estimated bytes; those before `head` were taken (and their
        /// messages released).
        var calls: [(message: BusMessage?, bytes: Int)] = []
        /// The index of the oldest call not yet taken.
        var head = 0
        /// The estimated bytes of the calls not yet taken.
        var bytes = 0
    }

    /// The queues of the senders with waiting calls.
    private var queues: [String: Queue] = [:]
    /// The senders with waiting calls, in the order a round serves them.
    private var order: [String] = []
    /// The most estimated bytes of calls one sender may have waiting; a single call over it
    /// is still taken when the sender has nothing waiting.
    var maximumBytesPerSender: Int

    /// Makes empty queues with the per-sender cap `maximumBytesPerSender`.
    init(maximumBytesPerSender: Int) {
        self.maximumBytesPerSender = maximumBytesPerSender
    }

    /// True when no call waits.
    var isEmpty: Bool { order.isEmpty }

    /// Appends `call`, weighing `bytes`, to the queue of `sender`; false (and nothing queued)
    /// when that would take the sender past `maximumBytesPerSender`.
    mutating func enqueue(_ call: BusMessage, from sender: String, bytes: Int) -> Bool {
        var queue = queues[sender] ?? Queue()
        let waiting = queue.calls.count - queue.head
        guard waiting == 0 || queue.bytes + bytes <= maximumBytesPerSender else { return false }
        if waiting == 0 { order.append(sender) }
        queue.calls.append((call, bytes))
        queue.bytes += bytes
        queues[sender] = queue
        return true
    }

    /// Takes the oldest waiting call of every sender with one, in round order.
    mutating func nextRound() -> [BusMessage] {
        var taken: [BusMessage] = []
        taken.reserveCapacity(order.count)
        var remaining: [String] = []
        for sender in order {
            guard var queue = queues.removeValue(forKey: sender) else { continue }
            let call = queue.calls[queue.head]
            // Release the message here: a taken call must not keep its bytes alive.
            queue.calls[queue.head].message = nil
            queue.head += 1
            queue.bytes -= call.bytes
            if let message = call.message { taken.append(message) }
            if queue.head == queue.calls.count { continue }
            // Drop the taken prefix once it is the larger part, so the array stays bounded.
            if queue.head > 32 && queue.head * 2 > queue.calls.count {
                queue.calls.removeFirst(queue.head)
                queue.head = 0
            }
            queues[sender] = queue
            remaining.append(sender)
        }
        order = remaining
        return taken
    }

    /// Drops every waiting call unanswered (the connection is gone).
    mutating func removeAll() {
        queues.removeAll()
        order.removeAll()
    }
}
