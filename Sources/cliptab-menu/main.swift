// SPDX-License-Identifier: MIT
// cliptab-menu: the popup that `cliptab menu [TABLE]` runs. It only wires: the settings,
// the daemon client, and the menu over them.
import CliptabClient
import CliptabConfig
import Glibc
import MenuModel
import Posix

SignalMask.ignoreBrokenPipe()
var table: String?
var configPath: String?
var timeout: Int32 = 5000
var filter = ""
var words = Array(CommandLine.arguments.dropFirst())[...]
/// How to start the daemon, for every "cannot reach it" message (as cliptab says it).
let startHint =
    "Start cliptabd with 'systemctl --user start cliptabd', or run 'cliptabd' in your desktop session.\n"
/// Writes `text` to standard error.
func printError(_ text: String) {
    _ = text.withCString { write(2, $0, strlen($0)) }
}
/// Prints a usage error and ends the process with status 2.
func usage(_ text: String) -> Never {
    printError(
        "cliptab-menu: \(text)\nusage: cliptab-menu [--config FILE] [--timeout MS] [--filter TEXT] [TABLE]\n")
    exit(MenuExit.usage)
}
while let word = words.popFirst() {
    switch word {
    case "--config":
        guard let value = words.popFirst() else { usage("--config needs a file") }
        configPath = value
    case "--timeout":
        guard let value = words.popFirst(), let number = Int32(value), number > 0 else {
            usage("--timeout needs milliseconds")
        }
        timeout = number
    case "--filter":
        guard let value = words.popFirst() else { usage("--filter needs a text") }
        filter = value
    case "--":
        if let value = words.popFirst() { table = value }
    default:
        if word.hasPrefix("-") { usage("unknown option \(word)") }
        guard table == nil else { usage("one table at most") }
        table = word
    }
}
var settings = MenuSettings()
// The file `--config` names, else the daemon's: read as cliptabd reads it, never waiting on
// a FIFO nor reading a huge file.
if let path = configPath ?? ConfigLocation.defaultPath() {
    do {
        let (parsed, problems) = MenuSettings.read(try ConfigFile.load(path: path))
        settings = parsed
        for problem in problems { printError("cliptab menu: \(problem); using the default\n") }
    } catch {
        if configPath != nil {
            printError("cliptab-menu: cannot read \(path): \(error)\n")
            exit(MenuExit.usage)
        }
        if !error.isMissing {
            printError("cliptab menu: cannot read \(path): \(error); using the defaults\n")
        }
    }
}
// Wayland: the layer-shell popup, or a refusal where no popup could take the keyboard.
if let status = WaylandStart.run(settings: settings, table: table, filter: filter, timeout: timeout) {
    exit(status)
}
// X11: the display and the font, the longest part of the time to the first frame, are opened
// on a thread of their own from here on, while this one reaches the bus and the daemon.
let setup = DisplaySetup.start(settings)
do {
    let client = try CliptabClient.connect(timeoutMilliseconds: timeout, sharedDeadline: false)
    exit(MenuApp(client: client, settings: settings, display: setup).run(table: table, filter: filter))
} catch {
    // The thread ends before the process does (it may be inside Xlib or fontconfig).
    _ = try? setup.wait()
    printError("cliptab: cannot connect to the session bus: \(error)\n" + startHint)
    exit(MenuExit.unavailable)
}
