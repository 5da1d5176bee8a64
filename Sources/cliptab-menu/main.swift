// SPDX-License-Identifier: MIT
// cliptab-menu: the X11 popup that `cliptab menu [TABLE]` runs. It only wires: the command
// line and settings, the daemon client, and the menu over them.
import CliptabClient
import CliptabContract
import Glibc
import MenuDriver
import PopupWindow
import Posix

SignalMask.ignoreBrokenPipe()
let commandLine = MenuCommandLine.ofThisProcess()
// A Wayland session's popup is the program that links Wayland's libraries, as this one
// links only X11's (`cliptab menu` runs it directly; this is for whoever runs cliptab-menu).
let waylandDisplay = getenv("WAYLAND_DISPLAY").map { String(cString: $0) }
if !commandLine.forcesX11, MenuProgram.forSession(waylandDisplay: waylandDisplay) == MenuProgram.wayland {
    let failure = ProgramImage.replace(with: MenuProgram.wayland, arguments: commandLine.words)
    printError("cliptab-menu: \(failure)\n")
    exit(MenuExit.unavailable)
}
let settings = commandLine.settingsOrExit()
// The display and the font, the longest part of the time to the first frame, are opened on
// a thread of their own from here on, while this one reaches the bus and the daemon.
let setup = DisplaySetup.start(settings)
do {
    let client = try CliptabClient.connect(timeoutMilliseconds: commandLine.timeout, sharedDeadline: false)
    // On X the daemon pastes wherever the focus is: a refusal of it is reported.
    let window = MenuWindow(settings: settings, display: setup)
    let menu = MenuFrontEnd(
        client: client, settings: settings, surface: window, copiesWhenPasteRefused: false)
    exit(menu.run(table: commandLine.table, filter: commandLine.filter))
} catch {
    // The thread ends before the process does (it may be inside Xlib or fontconfig).
    _ = try? setup.wait()
    printError("cliptab: cannot connect to the session bus: \(error)\n" + startHint)
    exit(MenuExit.unavailable)
}
