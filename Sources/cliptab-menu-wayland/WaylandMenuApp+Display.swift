// SPDX-License-Identifier: MIT
import DBus
import Glibc
import MenuDriver
import MenuModel
import Posix

/// What the Wayland popup does itself: the overlay goes, a message shows, statistics.
extension WaylandMenuApp {
    /// Removes the overlay, so the focused window has the keyboard again before the daemon
    /// pastes into it.
    func close() {
        try? popup.hide()
    }

    /// Shows `text` in place of the prompt for a moment (or until a key), then closes.
    func show(_ text: String, status: Int32) -> Int32 {
        message = text
        do {
            if !popup.isShown { try popup.show(namespace: "cliptab-menu") }
            try paint()
            let deadline = MonotonicClock.milliseconds() + 2500
            while MonotonicClock.milliseconds() < deadline {
                while let event = popup.nextEvent() {
                    if case .key = event { return status }
                    if case .closed = event { return status }
                }
                var entry = pollfd(fd: try popup.prepareToPoll(), events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, 100)
                try popup.finishPoll(readable: entry.revents & Int16(POLLIN) != 0)
            }
        } catch {
            printError("cliptab menu: \(text)\n")
        }
        return status
    }

    /// For the tests (work counted, not timed): when CLIPTAB_MENU_STATISTICS names a file,
    /// writes the frames drawn and the bytes shaped into it.
    func writeStatistics() {
        guard let path = getenv("CLIPTAB_MENU_STATISTICS").map({ String(cString: $0) }), !path.isEmpty,
            let file = fopen(path, "w")
        else { return }
        fputs("frames \(frames)\nshaped_bytes \(shapedBytes)\n", file)
        fclose(file)
    }
}
