// SPDX-License-Identifier: MIT
import CTestPointer

/// A pointer on a headless compositor's seat, which has none of its own: a wlroots virtual
/// pointer (`zwlr_virtual_pointer_v1`) that moves to points and clicks, for as long as it
/// lives.
///
/// The one owner of its C handle: the pointer goes, and with it the seat's pointer, when
/// this is released.
public final class VirtualPointer {
    private let handle: OpaquePointer
    /// The output's size in logical pixels, which absolute points are taken within.
    public let width: Int, height: Int

    /// Plugs a pointer into the seat of the compositor at `display` (a socket name or path),
    /// on an output of `width` × `height`.
    public init(display: String, width: Int, height: Int) throws {
        var message = [CChar](repeating: 0, count: 256)
        guard let handle = CTP_connect(display, &message, message.count) else {
            throw FixtureError(
                String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.handle = handle
        self.width = width
        self.height = height
    }

    deinit { CTP_disconnect(handle) }

    /// Moves to `x`, `y` and returns once the compositor has handled it.
    public func move(x: Int, y: Int) throws {
        guard CTP_move(handle, UInt32(x), UInt32(y), UInt32(width), UInt32(height)) == 0 else {
            throw FixtureError("the compositor broke the virtual pointer's connection")
        }
    }

    /// Presses and releases the left button (`right`: the right one) where the pointer is.
    public func click(right: Bool = false) throws {
        let button: UInt32 = right ? 0x111 : 0x110
        guard CTP_button(handle, button, 1) == 0, CTP_button(handle, button, 0) == 0 else {
            throw FixtureError("the compositor broke the virtual pointer's connection")
        }
    }
}
