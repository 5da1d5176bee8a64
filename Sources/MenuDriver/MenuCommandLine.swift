// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabContract
import Glibc
import MenuModel

/// The one command line of both popup programs (`MenuProgram`), as `cliptab menu` passes it
/// on, and the [menu] settings it leads to.
public struct MenuCommandLine {
    /// The words it was parsed from, to hand over to the other popup unchanged.
    public let words: [String]
    /// The table to show (nil: the list of tables).
    public private(set) var table: String?
    /// The file `--config` names (nil: the daemon's).
    public private(set) var configPath: String?
    /// `--timeout`: of each call to the daemon, in milliseconds.
    public private(set) var timeout: Int32 = 5000
    /// `--filter`: the text typed into the filter at the start.
    public private(set) var filter = ""
    /// `--x11`: the X11 popup even in a Wayland session.
    public private(set) var forcesX11 = false

    /// The synopsis, for every usage error.
    public static let synopsis =
        "usage: cliptab-menu [--config FILE] [--timeout MS] [--filter TEXT] [--x11] [TABLE]"

    /// Parses `words` (the arguments after the program's name); throws what is wrong with
    /// them.
    public init(_ words: [String]) throws(MenuUsageError) {
        self.words = words
        var rest = words[...]
        while let word = rest.popFirst() {
            switch word {
            case "--config":
                guard let value = rest.popFirst() else { throw MenuUsageError("--config needs a file") }
                configPath = value
            case "--timeout":
                guard let value = rest.popFirst(), let number = Int32(value), number > 0 else {
                    throw MenuUsageError("--timeout needs milliseconds")
                }
                timeout = number
            case "--filter":
                guard let value = rest.popFirst() else { throw MenuUsageError("--filter needs a text") }
                filter = value
            case MenuProgram.x11Option:
                forcesX11 = true
            case "--":
                if let value = rest.popFirst() { table = value }
            default:
                if word.hasPrefix("-") { throw MenuUsageError("unknown option \(word)") }
                guard table == nil else { throw MenuUsageError("one table at most") }
                table = word
            }
        }
    }

    /// This process's command line; on a usage error, says so and ends the process.
    public static func ofThisProcess() -> MenuCommandLine {
        do {
            return try MenuCommandLine(Array(CommandLine.arguments.dropFirst()))
        } catch {
            error.exit()
        }
    }

    /// The settings, each problem with them said on standard error; when the file
    /// `--config` names cannot be read, says so and ends the process.
    ///
    /// Read only by the popup that shows the menu, not by one that hands it over.
    public func settingsOrExit() -> MenuSettings {
        do {
            return try settings(warn: printError)
        } catch {
            error.exit()
        }
    }

    /// The [menu] settings of the file `--config` names, else of the daemon's file.
    ///
    /// The file is read as cliptabd reads it (never waiting on a FIFO nor reading a huge
    /// file); each problem with a setting, or with a file that is not `--config`'s, goes to
    /// `warn` and the default is used. Throws when the file `--config` names cannot be read.
    public func settings(warn: (String) -> Void) throws(MenuUsageError) -> MenuSettings {
        guard let path = configPath ?? ConfigLocation.defaultPath() else { return MenuSettings() }
        do {
            let (parsed, problems) = MenuSettings.read(try ConfigFile.load(path: path))
            for problem in problems { warn("cliptab menu: \(problem); using the default\n") }
            return parsed
        } catch {
            if configPath != nil { throw MenuUsageError("cannot read \(path): \(error)") }
            if !error.isMissing { warn("cliptab menu: cannot read \(path): \(error); using the defaults\n") }
            return MenuSettings()
        }
    }
}

/// What is wrong with a popup program's command line.
public struct MenuUsageError: Error {
    /// The one line, without the program's name.
    public let message: String

    /// The error saying `message`.
    public init(_ message: String) { self.message = message }

    /// Says `message` and the synopsis on standard error, and ends the process with the
    /// usage status.
    public func exit() -> Never {
        printError("cliptab-menu: \(message)\n\(MenuCommandLine.synopsis)\n")
        Glibc.exit(MenuExit.usage)
    }
}

/// Writes `text` to standard error.
public func printError(_ text: String) {
    _ = text.withCString { write(2, $0, strlen($0)) }
}
