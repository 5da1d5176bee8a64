// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import Testing

/// The ownership books and reconnection schedule both selection backends share, on a
/// virtual clock.
struct SelectionBookkeepingTests {
    let clock = VirtualClock()

    func books(retryingOnCalls: Bool = false) -> SelectionBookkeeping<Int> {
        SelectionBookkeeping(
            kind: "Wayland", display: "wayland-9", reconnectMilliseconds: 5000,
            callsRetryAfterLoss: retryingOnCalls,
            clock: { [clock] in clock.now })
    }

    /// Stamps increase and are never reused; a loss or a read under another token (an older
    /// ownership of the protocol's) is not ours and is not reported.
    @Test func stampsAndTheirEvents() {
        let books = books()
        let first = books.owned(.clipboard, token: 1)
        let second = books.owned(.clipboard, token: 2)
        let primary = books.owned(.primary, token: 3)
        #expect(first.rawValue < second.rawValue && second.rawValue < primary.rawValue)
        books.lost(.clipboard, token: 1)
        books.served(.clipboard, token: 1, reader: 7, textDelivered: true)
        #expect(!books.hasEvents)
        books.served(.clipboard, token: 2, reader: 7, textDelivered: true)
        books.lost(.clipboard, token: 2)
        books.lost(.clipboard)
        #expect(
            books.takeEvents() == [
                .served(.clipboard, second, reader: 7, textDelivered: true), .lost(.clipboard, second),
            ])
        #expect(books.takeEvents().isEmpty)
        #expect(books.release(.primary, second) == nil)
        #expect(books.release(.primary, primary) == 3)
        #expect(books.ownership(.primary) == nil)
        #expect(!books.hasEvents)
    }

    /// A lost connection ends every ownership, reported; the next attempt waits 5 s on the
    /// clock, and calls meanwhile are told when and why.
    @Test func lossSchedulesTheReconnection() {
        let books = books()
        #expect(books.mayConnect(force: false))
        books.connected()
        let clipboard = books.owned(.clipboard, token: 1)
        let primary = books.owned(.primary, token: 2)
        clock.advance(2000)
        books.connectionLost("dropped")
        #expect(books.takeEvents() == [.lost(.clipboard, clipboard), .lost(.primary, primary)])
        #expect(books.nextAttempt == clock.now + 5000)
        clock.advance(3000)
        #expect(
            books.unavailable().message
                == "the Wayland connection to wayland-9 was lost 3 s ago (dropped); reconnecting in 2 s")
        // A call does not undo the wait after a loss; the schedule's attempt does.
        #expect(!books.mayConnect(force: true))
        clock.advance(1999)
        #expect(!books.mayConnect(force: false))
        clock.advance(1)
        #expect(books.mayConnect(force: false))
        books.connectFailed("refused")
        #expect(books.nextAttempt == clock.now + 10_000)
        #expect(books.unavailable().message.contains(", 2 times in a row (refused); reconnecting in 10 s"))
        clock.advance(10_000)
        #expect(books.mayConnect(force: false))
        books.connected()
        #expect(books.lastError.isEmpty)
    }

    /// Where a display back is usable at once (X11), a call tries it at once after a loss.
    @Test func callsMayRetryAtOnce() {
        let books = books(retryingOnCalls: true)
        books.connected()
        books.connectionLost("")
        #expect(books.lastError == "the connection failed")
        #expect(books.mayConnect(force: true))
        #expect(!books.mayConnect(force: false))
    }

    /// Before any connection, a failure is no loss: it says why, and the retry is the base wait.
    @Test func failedFirstConnection() {
        let books = books()
        #expect(books.mayConnect(force: true))
        books.connectFailed("no such socket")
        #expect(books.nextAttempt == clock.now + 5000)
        #expect(
            books.unavailable().message == "the Wayland display wayland-9 is not reachable: no such socket")
        #expect(books.mayConnect(force: true))
    }

    /// `live` keeps a connection: made when due, kept while sound, dropped once broken
    /// (ownerships ended, reported) and made again only when the schedule says.
    @Test func liveConnection() {
        let books = books()
        var connection: String?
        var broken = false
        var refuse = true
        func live(force: Bool = false) -> String? {
            books.live(&connection, force: force, broken: { _ in broken ? "gone" : nil }) {
                if refuse { throw CliptabError(.clipboardUnavailable, "refused") }
                return "connection"
            }
        }
        #expect(live(force: true) == nil && books.lastError.contains("refused"))
        refuse = false
        #expect(live() == nil)
        clock.advance(5000)
        #expect(live() == "connection")
        let stamp = books.owned(.clipboard, token: 1)
        broken = true
        #expect(live(force: true) == nil && connection == nil)
        #expect(books.takeEvents() == [.lost(.clipboard, stamp)])
        broken = false
        clock.advance(4999)
        #expect(live() == nil)
        clock.advance(1)
        #expect(live() == "connection" && books.lastError.isEmpty)
    }

    /// The reconnection's back-off: 5 s, doubled for each loss after a short-lived
    /// connection (or a failed attempt), at most a minute; a connection that lasted a minute
    /// starts the count anew.
    @Test func reconnectBackOff() {
        let books = books()
        books.connected()
        var delays: [UInt64] = []
        for _ in 0..<6 {
            clock.advance(1000)
            books.connectionLost("dropped")
            delays.append(books.nextAttempt - clock.now)
            clock.advance(books.nextAttempt - clock.now)
            books.connected()
        }
        #expect(delays == [5000, 10_000, 20_000, 40_000, 60_000, 60_000])
        // A failed attempt counts as a loss in a row, with no connection between.
        books.connectionLost("dropped")
        #expect(books.mayConnect(force: false) == false)
        clock.advance(60_000)
        #expect(books.mayConnect(force: false))
        books.connectFailed("refused")
        #expect(books.nextAttempt - clock.now == 60_000)
        clock.advance(60_000)
        books.connected()
        clock.advance(60_000)
        books.connectionLost("after a minute")
        #expect(books.nextAttempt - clock.now == 5000)
        #expect(books.unavailable().message.hasSuffix("ago (after a minute); reconnecting in 5 s"))
    }
}
