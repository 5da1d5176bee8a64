// SPDX-License-Identifier: MIT
import CWayland

/// A `wl_display.sync` in flight: done once the compositor has handled every request sent
/// before it (and sent every event those caused).
final class SyncCallback {
    /// True once the compositor answered.
    private(set) var isDone = false
    /// Run once when the compositor answers.
    private let whenDone: (SyncCallback) -> Void
    private var object: ProtocolObject?

    private init(whenDone: @escaping (SyncCallback) -> Void) { self.whenDone = whenDone }

    /// Sends a sync on `display`; `whenDone` runs (with the callback) once it is answered.
    static func send(on display: DisplayConnection, whenDone: @escaping (SyncCallback) -> Void = { _ in })
        throws(WaylandError) -> SyncCallback
    {
        let callback = SyncCallback(whenDone: whenDone)
        let object = try ProtocolObject.take(
            CWayland_display_sync(display.handle), of: display, making: "wl_display.sync",
            destructor: { wl_proxy_destroy($0) })
        CWayland_callback_add_listener(
            object.handle, SyncCallback.listener, Unmanaged.passUnretained(callback).toOpaque())
        callback.object = object
        return callback
    }

    nonisolated(unsafe) private static let listener: UnsafeMutablePointer<CWayland_callback_listener> = {
        let table = UnsafeMutablePointer<CWayland_callback_listener>.allocate(capacity: 1)
        table.initialize(
            to: CWayland_callback_listener(done: { data, _, _ in
                guard let data else { return }
                let callback = Unmanaged<SyncCallback>.fromOpaque(data).takeUnretainedValue()
                callback.isDone = true
                callback.whenDone(callback)
            }))
        return table
    }()
}
