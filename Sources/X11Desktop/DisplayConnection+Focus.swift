// SPDX-License-Identifier: MIT
import CX11

/// The requests of the focus search beyond the keyboard's: the window manager's
/// `_NET_ACTIVE_WINDOW`, and the count of requests sent, by which a search is bounded.
extension DisplayConnection {
    /// The serial the next request will get: the difference of two readings is the number
    /// of requests sent between them.
    var nextRequestSerial: UInt { isBroken ? 0 : withUnsafeHandle { XNextRequest($0) } }

    /// The window in `property` of `window` when it holds one 32-bit `WINDOW` value (as
    /// `_NET_ACTIVE_WINDOW` on the root does where a window manager sets it), else `.none`.
    ///
    /// One round trip, reading at most one item whatever the property holds.
    func windowProperty(_ property: InternedAtom, of window: WindowID, type: InternedAtom) -> WindowID {
        guard !isBroken else { return .none }
        var actualType: UInt = 0
        var actualFormat: Int32 = 0
        var items: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = withUnsafeHandle {
            XGetWindowProperty(
                $0, window.rawValue, property.rawValue, 0, 1, False, type.rawValue, &actualType,
                &actualFormat,
                &items, &remaining, &data)
        }
        defer { if let data { XFree(data) } }
        guard status == Success, actualType == type.rawValue, actualFormat == 32, items == 1, let data else {
            return .none
        }
        // Format-32 items come as C longs.
        let value = UnsafeRawPointer(data).loadUnaligned(as: CUnsignedLong.self)
        return WindowID(rawValue: UInt(value))
    }
}
