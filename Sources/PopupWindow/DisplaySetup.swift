// SPDX-License-Identifier: MIT
import Glibc
import MenuModel

/// The display, the font and the colours, opened on a thread of their own while the main
/// thread connects to the bus and asks the daemon for the first page: the two are the
/// largest parts of the time to the first frame and need nothing of each other.
///
/// Only that thread touches the display until `wait()` has joined it, so Xlib needs no
/// locking; afterwards only the main thread does.
public final class DisplaySetup: @unchecked Sendable {
    /// What the thread opened.
    public struct Opened {
        /// The connection to the X server.
        public let connection: PopupConnection
        /// The font.
        public let font: PopupFont
        /// The colours.
        let colors: MenuColors
    }

    private let settings: MenuSettings
    private var result: Result<Opened, any Error> = .failure(PopupError("the display was not opened"))
    private var thread = pthread_t()
    private var started = false

    private init(settings: MenuSettings) { self.settings = settings }

    /// Starts opening the display with `settings`' font and colours.
    public static func start(_ settings: MenuSettings) -> DisplaySetup {
        let setup = DisplaySetup(settings: settings)
        // The thread starts with every signal blocked, so that SIGTERM always reaches the
        // main thread's signalfd.
        var all = sigset_t()
        var saved = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, &saved)
        let context = Unmanaged.passRetained(setup).toOpaque()
        let status = pthread_create(
            &setup.thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<DisplaySetup>.fromOpaque(context).takeRetainedValue().open()
                return nil
            }, context)
        pthread_sigmask(SIG_SETMASK, &saved, nil)
        if status == 0 {
            setup.started = true
        } else {
            // No thread: open here, in turn.
            Unmanaged<DisplaySetup>.fromOpaque(context).release()
            setup.open()
        }
        return setup
    }

    /// Opens everything (on the setup thread).
    private func open() {
        result = Result {
            let connection = try PopupConnection.open()
            let font = try PopupFont.open(settings.font, on: connection)
            return Opened(
                connection: connection, font: font, colors: try MenuColors(settings, on: connection))
        }
    }

    /// Waits for the thread and returns what it opened.
    @discardableResult public func wait() throws -> Opened {
        if started {
            pthread_join(thread, nil)
            started = false
        }
        return try result.get()
    }
}

/// The settings' colours allocated on the display, one for each ink.
struct MenuColors {
    private let colors: [PopupColor]

    /// Allocates the settings' colours on `connection`.
    init(_ settings: MenuSettings, on connection: PopupConnection) throws {
        colors = try MenuInk.allCases.map { try PopupColor.allocate(settings.color(of: $0), on: connection) }
    }

    /// The colour of `ink`.
    subscript(ink: MenuInk) -> PopupColor {
        colors[MenuInk.allCases.firstIndex(of: ink) ?? 0]
    }
}
