// SPDX-License-Identifier: MIT

/// Method calls waiting to be served, one first-in first-out queue per sender, taken
/// round-robin (one call per sender per round) so that one sender's backlog delays only that
/// sender.
///
/// Each call costs O(1) to queue and to take: a sender's queue is a reference, changed in
/// place, so a long backlog is never copied.
struct SenderQueues {
    /// One sender's waiting calls and what they weigh.
    private final class Queue {
        /// The sender's unique bus name.
        let sender: String
        /// The calls with their estimated bytes; those before `head` were taken (and their
        /// messages released).
        var calls: [(message: BusMessage?, bytes: Int)] = []
        /// The index of the oldest call not yet taken.
        var head = 0
        /// The estimated bytes of the calls not yet taken.
        var bytes = 0

        init(sender: String) {
            self.sender = sender
        }

        var isEmpty: Bool { head == calls.count }

        /// Takes the oldest waiting call; the queue must not be empty.
        func take() -> BusMessage? {
            let call = calls[head]
            // Release the message here: a taken call must not keep its bytes alive.
            calls[head].message = nil
            head += 1
            bytes -= call.bytes
            if head == calls.count {
                calls.removeAll(keepingCapacity: calls.count <= 64)
                head = 0
            } else if head > 32 && head * 2 > calls.count {
                // Drop the taken prefix once it is the larger part, so the array stays bounded.
                calls.removeFirst(head)
                head = 0
            }
            return call.message
        }
    }

    /// The queues of the senders with waiting calls, by sender.
    private var queues: [String: Queue] = [:]
    /// The same queues, in the order a round serves them.
    private var order: [Queue] = []
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
        let queue: Queue
        if let waiting = queues[sender] {
            guard waiting.bytes + bytes <= maximumBytesPerSender else { return false }
            queue = waiting
        } else {
            queue = Queue(sender: sender)
            queues[sender] = queue
            order.append(queue)
        }
        queue.calls.append((call, bytes))
        queue.bytes += bytes
        return true
    }

    /// Takes the oldest waiting call of every sender with one, in round order.
    mutating func nextRound() -> [BusMessage] {
        var taken: [BusMessage] = []
        taken.reserveCapacity(order.count)
        var emptied = false
        for queue in order {
            if let message = queue.take() { taken.append(message) }
            if queue.isEmpty {
                queues[queue.sender] = nil
                emptied = true
            }
        }
        if emptied { order.removeAll { $0.isEmpty } }
        return taken
    }

    /// Drops every waiting call unanswered (the connection is gone).
    mutating func removeAll() {
        queues.removeAll()
        order.removeAll()
    }
}
