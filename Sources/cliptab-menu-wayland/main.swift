// SPDX-License-Identifier: MIT
// cliptab-menu-wayland: the layer-shell popup that `cliptab menu [TABLE]` runs in a Wayland
// session. It only wires: the command line and settings, the daemon client, and the menu.
import CliptabContract
import Glibc
import MenuDriver
import Posix

SignalMask.ignoreBrokenPipe()
let commandLine = MenuCommandLine.ofThisProcess()
let settings = commandLine.settingsOrExit()
if let status = WaylandStart.run(
    settings: settings, table: commandLine.table, filter: commandLine.filter, timeout: commandLine.timeout)
{
    exit(status)
}
// No compositor answered (or none is named): the X11 popup, told not to hand back.
let failure = ProgramImage.replace(
    with: MenuProgram.x11, arguments: [MenuProgram.x11Option] + commandLine.words)
printError("cliptab-menu-wayland: \(failure)\n")
exit(MenuExit.unavailable)
