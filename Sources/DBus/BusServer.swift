// SPDX-License-Identifier: MIT
internal import CDBus
import Glibc
import Posix

/// A Unix socket on which a daemon serves its objects to peers directly, beside its bus
/// connection: a call from a peer skips the bus daemon, two process wake-ups each way.
///
/// Owns a libdbus `DBusServer` listening at a path, and the connections it accepts. Each
/// peer's connection is a `BusConnection`, served exactly like the bus's: `configure` (given
/// at `listen`) registers the objects on it and sets its limits; its calls wait in per-sender
/// queues under the peer's name (`:peer.N`), since no bus names the sender; and when the peer
/// is gone and its calls are served, `peerGone` is told that name.
///
/// Only the server's user gets in: EXTERNAL is the only mechanism offered, and libdbus checks
/// the socket's peer credentials against this process's uid. The server is bounded: at most
/// `maximumPeers` connections (more are closed at once, so a client goes to the bus instead),
/// and a connection that has not authenticated within `authenticationMilliseconds` is closed.
///
/// Driven from the owner's `poll()` loop like a `BusConnection`: `pollDescriptors`,
/// `handle`, `dispatchRound`, `nextDeadline` and `handleExpiredTimeouts` each turn.
public final class BusServer {
    /// One accepted connection.
    private struct Peer {
        let connection: BusConnection
        /// When the server accepted it, on the server's clock.
        let acceptedAt: UInt64
    }

    /// The libdbus server; one reference belongs to this object.
    private let handle: OpaquePointer
    /// The listening socket's watches.
    private let loop = BusLoopState()
    /// The socket's path.
    public let path: String
    /// The most peers connected at once.
    public let maximumPeers: Int
    /// The time a peer has to authenticate, in milliseconds.
    public let authenticationMilliseconds: UInt64
    /// The monotonic time in milliseconds.
    private let clock: () -> UInt64
    /// Registers objects on a new peer's connection and sets its limits.
    private let configure: (BusConnection) throws -> Void
    /// Told the name of a peer that is gone, once its calls are served.
    private let peerGone: (String) -> Void
    /// The connected peers, oldest first.
    private var peers: [Peer] = []
    /// The number in the next peer's name.
    private var nextPeerNumber: UInt64 = 1
    /// True once `close()` ran.
    private var isClosed = false

    private init(
        handle: OpaquePointer, path: String, maximumPeers: Int, authenticationMilliseconds: UInt64,
        clock: @escaping () -> UInt64, configure: @escaping (BusConnection) throws -> Void,
        peerGone: @escaping (String) -> Void
    ) {
        self.handle = handle
        self.path = path
        self.maximumPeers = maximumPeers
        self.authenticationMilliseconds = authenticationMilliseconds
        self.clock = clock
        self.configure = configure
        self.peerGone = peerGone
    }

    deinit {
        close()
        dbus_server_unref(handle)
    }

    /// Listens at the socket `path` (a stale socket there is replaced); `configure` prepares
    /// each accepted connection, `peerGone` hears each peer's name when it is gone, and
    /// `clock` gives the monotonic time in milliseconds for the authentication deadline.
    ///
    /// Throws when the socket cannot be made (its directory missing, the path too long for
    /// a Unix socket, or something other than a socket there).
    public static func listen(
        path: String, maximumPeers: Int = 64, authenticationMilliseconds: UInt64 = 5_000,
        clock: @escaping () -> UInt64 = MonotonicClock.milliseconds,
        configure: @escaping (BusConnection) throws -> Void, peerGone: @escaping (String) -> Void
    ) throws -> BusServer {
        let address = try unixPathAddress(path)
        let opened = try withBusError { error in dbus_server_listen(address, error) }
        guard let opened else { throw BusError.noMemory("listening at \(path)") }
        let server = BusServer(
            handle: opened, path: path, maximumPeers: maximumPeers,
            authenticationMilliseconds: authenticationMilliseconds, clock: clock, configure: configure,
            peerGone: peerGone)
        // From here on, deinit disconnects the server (which removes the socket) on failure.
        // Not DBUS_COOKIE_SHA1, which would read and write the user's keyrings for no peer
        // that could not use EXTERNAL; libdbus copies the list.
        let external = strdup("EXTERNAL")
        defer { free(external) }
        var mechanisms: [UnsafePointer<CChar>?] = [UnsafePointer(external), nil]
        guard external != nil, dbus_server_set_auth_mechanisms(opened, &mechanisms) != 0 else {
            throw BusError.noMemory("setting the authentication mechanisms")
        }
        try server.loop.install(onServer: opened)
        dbus_server_set_new_connection_function(
            opened,
            { _, connection, data in
                guard let connection, let data else { return }
                Unmanaged<BusServer>.fromOpaque(data).takeUnretainedValue().accept(connection)
            }, Unmanaged.passUnretained(server).toOpaque(), nil)
        return server
    }

    /// Serves the new connection `raw`, or closes it when the server is full or closed or
    /// the connection cannot be prepared (libdbus then drops it).
    private func accept(_ raw: OpaquePointer) {
        guard !isClosed, peers.count < maximumPeers else {
            dbus_connection_close(raw)
            return
        }
        let name = ":peer.\(nextPeerNumber)"
        nextPeerNumber += 1
        do {
            let connection = try BusConnection.adoptingPeer(raw, name: name)
            do {
                try configure(connection)
            } catch {
                connection.close()
                return
            }
            peers.append(Peer(connection: connection, acceptedAt: clock()))
        } catch {
            dbus_connection_close(raw)
        }
    }

    /// Stops listening, removes the socket and closes every peer (each is reported gone).
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        // libdbus removes the socket file of a path it listened at.
        dbus_server_disconnect(handle)
        loop.uninstall(fromServer: handle)
        let closing = peers
        peers.removeAll()
        for peer in closing {
            peer.connection.close()
            if let name = peer.connection.peerName { peerGone(name) }
        }
    }

    // MARK: - Main-loop integration

    /// The descriptors to poll: the listening socket's and each peer's, without reading from
    /// a peer whose replies not yet written exceed `maximumQueuedReplyBytes` (its own calls
    /// wait until it reads; nobody else's do).
    public func pollDescriptors(maximumQueuedReplyBytes: Int) -> [pollfd] {
        var descriptors = loop.pollDescriptors()
        for peer in peers {
            descriptors += peer.connection.pollDescriptors(
                reading: peer.connection.outgoingBytes <= maximumQueuedReplyBytes)
        }
        return descriptors
    }

    /// Lets libdbus accept, read and write on the descriptors `poll()` found ready; entries
    /// for other descriptors are ignored.
    public func handle(_ polled: [pollfd]) {
        loop.handle(polled)
        for peer in peers { peer.connection.handle(polled) }
    }

    /// Serves one round of each peer's waiting calls (one call per sender, see
    /// `BusConnection.dispatchRound()`), skipping a peer whose unwritten replies exceed
    /// `maximumQueuedReplyBytes`; then lets go of the peers that are gone.
    public func dispatchRound(maximumQueuedReplyBytes: Int) {
        for peer in peers where peer.connection.outgoingBytes <= maximumQueuedReplyBytes {
            peer.connection.dispatchRound()
        }
        removeGonePeers()
    }

    /// Dispatches every call the peers already delivered, as a daemon does before it stops.
    ///
    /// Nothing waits for the replies to be written: libdbus writes what each socket takes at
    /// once, and a peer that does not read must not hold up the stop.
    public func dispatchAll() {
        for peer in peers { peer.connection.dispatchAll() }
    }

    /// True when a peer that is not backlogged has calls waiting: the loop must not block.
    public func hasMessagesToDispatch(maximumQueuedReplyBytes: Int) -> Bool {
        peers.contains {
            $0.connection.outgoingBytes <= maximumQueuedReplyBytes && $0.connection.hasMessagesToDispatch
        }
    }

    /// The earliest time (on the server's clock) something is due: a libdbus timeout, or a
    /// peer's authentication deadline; nil when nothing is.
    public func nextDeadline() -> UInt64? {
        // libdbus's timeouts run on the monotonic clock; the deadline is told on the server's.
        let now = clock()
        let monotonicNow = MonotonicClock.milliseconds()
        var earliest: UInt64?
        func consider(_ time: UInt64) { earliest = min(earliest ?? time, time) }
        if let wait = loop.nextTimeoutMilliseconds(now: monotonicNow) { consider(now + UInt64(wait)) }
        for peer in peers {
            if let wait = peer.connection.nextTimeoutMilliseconds(now: monotonicNow) {
                consider(now + UInt64(wait))
            }
            if !peer.connection.isAuthenticated {
                consider(peer.acceptedAt + authenticationMilliseconds)
            }
        }
        return earliest
    }

    /// Runs the libdbus timeouts that are due and closes the peers that did not authenticate
    /// in time.
    public func handleExpiredTimeouts() {
        let now = clock()
        loop.handleExpiredTimeouts(now: MonotonicClock.milliseconds())
        for peer in peers {
            peer.connection.handleExpiredTimeouts()
            if !peer.connection.isAuthenticated, now >= peer.acceptedAt + authenticationMilliseconds {
                peer.connection.close()
            }
        }
        removeGonePeers()
    }

    /// Drops the peers whose connection is closed and whose calls are all served, telling
    /// `peerGone` each name.
    private func removeGonePeers() {
        let gone = peers.filter { !$0.connection.isConnected && !$0.connection.hasMessagesToDispatch }
        guard !gone.isEmpty else { return }
        peers.removeAll { !$0.connection.isConnected && !$0.connection.hasMessagesToDispatch }
        for peer in gone {
            peer.connection.close()
            if let name = peer.connection.peerName { peerGone(name) }
        }
    }
}
