// SPDX-License-Identifier: MIT
import CXft
import Glibc
import Posix

/// Watches the root window for the next top-level window to be mapped and painted, to time
/// how long a menu (ours, dmenu's, rofi's) takes to appear.
public final class MapWatcher {
    private let connection: PopupConnection

    /// Starts watching the root window of `connection` for windows being mapped.
    public init(connection: PopupConnection) {
        self.connection = connection
        XSelectInput(connection.display, connection.root, SubstructureNotifyMask)
        XSync(connection.display, False)
    }

    /// Drops the events seen so far (windows of an earlier run unmapping).
    public func reset() {
        XSync(connection.display, False)
        var event = XEvent()
        while XPending(connection.display) > 0 { XNextEvent(connection.display, &event) }
    }

    /// Waits for a window to be mapped and then until it shows more than one colour (drawn);
    /// returns false when that does not happen within `timeoutMilliseconds`.
    public func waitForPaintedWindow(timeoutMilliseconds: Int) -> Bool {
        let display = connection.display
        let deadline = Self.now() + Double(timeoutMilliseconds) / 1000
        var mapped: UInt = 0
        while mapped == 0 {
            if XPending(display) == 0 {
                let left = deadline - Self.now()
                guard left > 0 else { return false }
                var entry = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, Int32(max(1, left * 1000)))
                continue
            }
            var event = XEvent()
            XNextEvent(display, &event)
            if event.type == MapNotify { mapped = event.xmap.window }
        }
        var attributes = XWindowAttributes()
        while Self.now() < deadline {
            if XGetWindowAttributes(display, mapped, &attributes) != 0, attributes.width > 1,
                isPainted(mapped, width: attributes.width, height: attributes.height)
            {
                return true
            }
            usleep(200)
        }
        return false
    }

    /// Whether the window's contents hold more than one pixel value.
    private func isPainted(_ window: UInt, width: Int32, height: Int32) -> Bool {
        guard
            let image = XGetImage(
                connection.display, window, 0, 0, UInt32(width), UInt32(height), ~UInt(0), ZPixmap)
        else { return false }
        defer { _ = image.pointee.f.destroy_image(image) }
        let picture = image.pointee
        guard picture.bits_per_pixel == 32, let data = picture.data else { return false }
        let first = UnsafeRawPointer(data).load(as: UInt32.self) & 0x00ff_ffff
        for y in 0..<Int(picture.height) {
            let line = UnsafeRawPointer(data + y * Int(picture.bytes_per_line))
            for x in 0..<Int(picture.width)
            where line.load(fromByteOffset: x * 4, as: UInt32.self) & 0x00ff_ffff != first {
                return true
            }
        }
        return false
    }

    /// Seconds of the one monotonic clock.
    private static func now() -> Double {
        Double(MonotonicClock.nanoseconds()) / 1e9
    }
}
