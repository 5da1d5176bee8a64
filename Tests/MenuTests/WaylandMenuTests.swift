// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// `cliptab menu` on a headless sway, through the layer-shell popup.
///
/// Keys come from `wtype` (one virtual keyboard per run, as the seat has none of its own);
/// cliptabd on the session's bus owns the clipboard through data-control; `wl-paste` and
/// `grim` are on the other side. The whole session runs as the test desktop's user (sway
/// refuses root).
@Suite(.serialized)
struct WaylandMenuTests {
    /// The colours of the default [menu] settings.
    static let background: UInt32 = 0x20242b
    static let selectedBackground: UInt32 = 0x3b6ea8

    /// A sway session with its bus, a cliptabd with table "t" (alpha, beta two, gamma), and
    /// `[menu] enter = copy` (pasting needs a focused window the test does not have).
    final class Session {
        let sway: HeadlessCompositor
        let bus: PrivateBus
        let daemon: ChildProcess
        /// The box's background, by which `open` sees the popup drawn.
        let background: UInt32

        /// The session; `menu` is its cliptab.conf's [menu] section, drawn on `background`.
        init(
            swayConfiguration: [String] = [], menu: String = "enter = copy\n",
            background: UInt32 = WaylandMenuTests.background
        ) throws {
            self.background = background
            sway = try HeadlessCompositor(.sway(extraConfiguration: swayConfiguration))
            bus = try sway.startBus()
            let config = sway.homeDirectory + "/.config/cliptab"
            let written = try sway.run(
                "sh", ["-c", "mkdir -p \(config) && cat > \(config)/cliptab.conf"],
                input: Array(("[menu]\n" + menu).utf8))
            guard written.termination == .exited(0) else {
                throw FixtureError("config: \(written.errorText)")
            }
            daemon = try sway.spawn(
                BuiltProducts.path(of: "cliptabd"), environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address],
                stdout: .null, stderr: .null)
            let deadline = MonotonicClock.milliseconds() + 20_000
            while try cliptab(["create", "t"]).termination != .exited(0) {
                guard MonotonicClock.milliseconds() < deadline else {
                    throw FixtureError("cliptabd did not answer on the session's bus")
                }
                usleep(20_000)
            }
            for text in ["alpha", "beta two", "gamma"] {
                let added = try cliptab(["add", "t", text])
                guard added.termination == .exited(0) else { throw FixtureError("add: \(added.errorText)") }
            }
        }

        deinit { daemon.terminate(graceMilliseconds: 2000) }

        /// Runs the built cliptab in the session.
        func cliptab(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
            try sway.run(
                BuiltProducts.path(of: "cliptab"), arguments,
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address].merging(environment) { $1 })
        }

        /// The output as grim captures it.
        func screen() throws -> PortablePixmap {
            let shot = try sway.run("grim", ["-t", "ppm", "-"])
            guard shot.termination == .exited(0) else { throw FixtureError("grim: \(shot.errorText)") }
            return try PortablePixmap(shot.standardOutput)
        }

        /// Starts `cliptab menu ARGUMENTS` (or the built `program` with them) and waits until
        /// the popup has painted its box.
        func open(_ arguments: [String], environment: [String: String] = [:], program: String? = nil) throws
            -> (ChildProcess, PortablePixmap)
        {
            let menu = try sway.spawn(
                BuiltProducts.path(of: program ?? "cliptab"), (program == nil ? ["menu"] : []) + arguments,
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address].merging(environment) { $1 })
            let deadline = MonotonicClock.milliseconds() + 20_000
            while true {
                let shot = try screen()
                if shot.bounds(of: background) != nil { return (menu, shot) }
                guard MonotonicClock.milliseconds() < deadline, menu.isRunning else {
                    menu.terminate(graceMilliseconds: 1000)
                    throw FixtureError("the menu painted nothing in 20 s (or it ended): \(menu.isRunning)")
                }
                usleep(20_000)
            }
        }

        /// Types `text`, then presses `keys`, with one virtual keyboard; the menu's status
        /// (nil and still open when `ends` is false).
        func type(_ text: String, keys: [String], into menu: ChildProcess, ends: Bool = true) throws
            -> Termination?
        {
            // The pause lets the popup bind the new keyboard and take its keymap.
            let typed = try sway.run(
                "wtype",
                ["-s", "300"] + (text.isEmpty ? [] : [text, "-s", "100"]) + keys.flatMap { ["-k", $0] })
            guard typed.termination == .exited(0) else { throw FixtureError("wtype: \(typed.errorText)") }
            guard ends else { return menu.isRunning ? nil : menu.waitForExit(timeoutMilliseconds: 1000) }
            let ended = menu.waitForExit(timeoutMilliseconds: 20_000)
            if ended == nil { menu.terminate(graceMilliseconds: 1000) }
            return ended
        }

        /// What `wl-paste` reads now.
        func clipboard() throws -> String {
            try sway.paste().outputText
        }

        /// The keyboard is free: a second popup opens, gets Escape and closes with status 1.
        func keyboardIsFree() throws -> Bool {
            let (menu, _) = try open(["t"])
            return try type("", keys: ["Escape"], into: menu) == .exited(1)
        }
    }

    /// Filter, Enter: the chosen row is on the clipboard; the popup drew its box with the
    /// prompt and the chosen row (screenshot), and left the keyboard free.
    @Test func filterAndEnterCopiesTheRow() throws {
        let session = try Session()
        let (menu, shot) = try session.open(["t"])
        let box = try #require(shot.bounds(of: Self.background))
        #expect(box.width > 200 && box.height > 60, "box \(box)")
        // The prompt line ("t › ") is drawn on the background: its pixels differ from it.
        let promptInk = shot.count(
            notMatching: Self.background, x: box.x, y: box.y, width: box.width / 4, height: 14)
        #expect(promptInk > 10, "prompt pixels \(promptInk)")
        // The first row is chosen, under the prompt.
        let chosen = try #require(shot.bounds(of: Self.selectedBackground))
        #expect(chosen.y > box.y && chosen.y < box.y + box.height / 2 && chosen.width == box.width)
        // Outside the box the overlay is transparent: the desktop's own pixels show.
        #expect(shot.pixel(0, 0) != Self.background)
        let status = try session.type("beta", keys: ["Return"], into: menu)
        #expect(status == .exited(0))
        #expect(try session.clipboard() == "beta two")
        #expect(try session.keyboardIsFree())
    }

    /// `cliptab-menu`, the X11 popup, run by hand in a Wayland session hands over to the
    /// layer-shell popup (this sway has no XWayland, so only that one can draw): it shows the
    /// table, and Enter copies the chosen row.
    @Test func theX11PopupHandsAWaylandSessionOver() throws {
        let session = try Session()
        let (menu, _) = try session.open(["t"], program: "cliptab-menu")
        #expect(try session.type("gamma", keys: ["Return"], into: menu) == .exited(0))
        #expect(try session.clipboard() == "gamma")
    }

    /// Escape changes neither the table nor the clipboard, and frees the keyboard.
    @Test func escapeChangesNothing() throws {
        let session = try Session()
        _ = try session.sway.copy(Array("before".utf8))
        let table = try session.cliptab(["show", "t"]).outputText
        let (menu, _) = try session.open(["t"])
        #expect(try session.type("al", keys: ["Down", "Escape"], into: menu) == .exited(1))
        #expect(try session.clipboard() == "before")
        #expect(try session.cliptab(["show", "t"]).outputText == table)
        #expect(try session.keyboardIsFree())
    }

    /// SIGTERM closes the popup with its status and the keyboard comes back.
    @Test func terminatedMenuFreesTheKeyboard() throws {
        let session = try Session()
        let (menu, _) = try session.open(["t"])
        kill(menu.pid, SIGTERM)
        #expect(menu.waitForExit(timeoutMilliseconds: 20_000) == .exited(143))
        #expect(try session.keyboardIsFree())
    }

    /// A 10 MB single-line row costs the renderer what a short row costs: the text is cut
    /// before pango shapes it (bytes counted, not time).
    @Test func longRowIsCutBeforeShaping() throws {
        let session = try Session()
        let statistics = session.sway.homeDirectory + "/statistics"
        func shaped(_ table: String) throws -> Int {
            let (menu, _) = try session.open([table], environment: ["CLIPTAB_MENU_STATISTICS": statistics])
            #expect(try session.type("", keys: ["Escape"], into: menu) == .exited(1))
            let text = try String(contentsOfFile: statistics, encoding: .utf8)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("shaped_bytes ") })
            return try #require(Int(line.dropFirst("shaped_bytes ".count)))
        }
        #expect(try session.cliptab(["create", "big"]).termination == .exited(0))
        let long = String(repeating: "0123456789", count: 1_000_000)
        let added = try session.sway.run(
            BuiltProducts.path(of: "cliptab"), ["add", "big", "-"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": session.bus.address], input: Array(long.utf8))
        #expect(added.termination == .exited(0), "\(added.errorText)")
        let short = try shaped("t")
        let big = try shaped("big")
        #expect(big < short + 4096, "short table \(short) bytes shaped, 10 MB row \(big)")
    }

    /// A row of 20,000 distinct rare characters (CJK Extension B, which needs font fallback
    /// or draws as boxes) costs the renderer what a short row costs: it is cut to what the
    /// line can show before pango shapes it (bytes counted, not time).
    @Test func rowOfRareCharactersIsCutBeforeShaping() throws {
        let session = try Session()
        let statistics = session.sway.homeDirectory + "/statistics"
        func shaped(_ table: String) throws -> (bytes: Int, frames: Int) {
            let (menu, _) = try session.open([table], environment: ["CLIPTAB_MENU_STATISTICS": statistics])
            #expect(try session.type("", keys: ["Escape"], into: menu) == .exited(1))
            let lines = try String(contentsOfFile: statistics, encoding: .utf8).split(separator: "\n")
            func figure(_ name: String) throws -> Int {
                let line = try #require(lines.first { $0.hasPrefix(name + " ") })
                return try #require(Int(line.dropFirst(name.count + 1)))
            }
            return (try figure("shaped_bytes"), try figure("frames"))
        }
        #expect(try session.cliptab(["create", "rare"]).termination == .exited(0))
        let rare = String(String.UnicodeScalarView((0..<20_000).map { Unicode.Scalar(0x20000 + $0)! }))
        let added = try session.sway.run(
            BuiltProducts.path(of: "cliptab"), ["add", "rare", "-"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": session.bus.address], input: Array(rare.utf8))
        #expect(added.termination == .exited(0), "\(added.errorText)")
        let short = try shaped("t")
        let long = try shaped("rare")
        #expect(long.frames == short.frames, "frames: short \(short.frames), rare \(long.frames)")
        #expect(
            long.bytes < short.bytes + 4096,
            "short table \(short.bytes) bytes shaped, the 80 kB row of rare characters \(long.bytes)")
    }

    /// Text typed through a keymap that is not plain US ASCII (wtype uploads one with the
    /// keysyms it types: é here) filters like any other: Enter copies the row it matches.
    @Test func accentedTextTypedFilters() throws {
        let session = try Session()
        #expect(try session.cliptab(["add", "t", "café au lait"]).termination == .exited(0))
        let (menu, _) = try session.open(["t"])
        #expect(try session.type("fé", keys: ["Return"], into: menu) == .exited(0))
        #expect(try session.clipboard() == "café au lait")
    }

    /// A dead key and the key after it type one character, as the locale's compose table says.
    ///
    /// C.UTF-8 takes en_US.UTF-8's table: "r", dead acute, "e", "s" filter for "rés". Without
    /// compose the filter would be "res" or "rs", and Enter would copy "resume" or nothing.
    @Test func deadKeyComposesWithTheNextKey() throws {
        let session = try Session()
        for text in ["resume", "résumé"] {
            #expect(try session.cliptab(["add", "t", text]).termination == .exited(0))
        }
        let (menu, _) = try session.open(["t"])
        #expect(try session.type("r", keys: ["dead_acute", "e", "s", "Return"], into: menu) == .exited(0))
        #expect(try session.clipboard() == "résumé")
    }

    /// The user's own `~/.XCompose` is read (it includes the locale's table and adds one
    /// sequence): Compose, g, g types γ, which filters for the one row that has it.
    @Test func usersComposeFileIsHonoured() throws {
        let session = try Session()
        let written = try session.sway.run(
            "sh", ["-c", "cat > \"$HOME/.XCompose\""],
            input: Array("include \"%L\"\n<Multi_key> <g> <g> : \"γ\"\n".utf8))
        #expect(written.termination == .exited(0), "\(written.errorText)")
        #expect(try session.cliptab(["add", "t", "γ-ray"]).termination == .exited(0))
        let (menu, _) = try session.open(["t"])
        #expect(try session.type("", keys: ["Multi_key", "g", "g", "Return"], into: menu) == .exited(0))
        #expect(try session.clipboard() == "γ-ray")
    }

    /// A secret table's rows are found by their names only, never by their text, and the
    /// editor of one starts empty (it is replaced, never shown), as on X: both menus carry
    /// their requests through one `MenuFrontEnd`.
    @Test func secretRowsAreFoundByNameOnlyAndEditedFromEmpty() throws {
        let session = try Session()
        _ = try session.sway.copy(Array("before".utf8))
        #expect(try session.cliptab(["create", "s"]).termination == .exited(0))
        #expect(
            try session.cliptab(["add", "s", "--name", "mail", "hunter2 mail"]).termination == .exited(0))
        let secret = try session.sway.run(
            "dbus-send",
            [
                "--session", "--print-reply", "--dest=io.github.cliptab.Cliptab1",
                "/io/github/cliptab/Cliptab1",
                "io.github.cliptab.Cliptab1.SetSecret", "string:s", "boolean:true",
            ], environment: ["DBUS_SESSION_BUS_ADDRESS": session.bus.address])
        #expect(secret.termination == .exited(0), "SetSecret: \(secret.errorText)")
        var (menu, _) = try session.open(["s"])
        // The secret's text matches nothing: Enter does nothing, Escape closes.
        #expect(try session.type("hunter", keys: ["Return", "Escape"], into: menu) == .exited(1))
        #expect(try session.clipboard() == "before")
        (menu, _) = try session.open(["s"])
        #expect(try session.type("mail", keys: ["Tab"], into: menu, ends: false) == nil)
        #expect(try session.type("edit", keys: ["Return"], into: menu, ends: false) == nil)
        #expect(try session.type("new", keys: ["Return"], into: menu) == .exited(0))
        #expect(try session.cliptab(["get", "s", "mail"]).outputText == "new")
    }

    /// Tab opens the row's actions, filtered like rows; "copy" puts the row on the clipboard.
    @Test func actionsLevelCopies() throws {
        let session = try Session()
        let (menu, _) = try session.open(["t"])
        #expect(try session.type("gam", keys: ["Tab"], into: menu, ends: false) == nil)
        #expect(try session.type("copy", keys: ["Return"], into: menu) == .exited(0))
        #expect(try session.clipboard() == "gamma")
    }

    /// On an output of scale 2 the box is drawn with twice the pixels (HiDPI from the
    /// output's scale), and it still works.
    @Test func outputScaleDoublesThePixels() throws {
        let plain = try Session()
        let (first, single) = try plain.open(["t"])
        #expect(try plain.type("", keys: ["Escape"], into: first) == .exited(1))
        let scaled = try Session(swayConfiguration: ["output * scale 2"])
        let (second, double) = try scaled.open(["t"])
        #expect(try scaled.type("beta", keys: ["Return"], into: second) == .exited(0))
        #expect(try scaled.clipboard() == "beta two")
        let one = try #require(single.bounds(of: Self.background))
        let two = try #require(double.bounds(of: Self.background))
        #expect(abs(two.width - 2 * one.width) <= 4 && abs(two.height - 2 * one.height) <= 4, "\(one) \(two)")
        // Drawn at the output's scale, not doubled by the compositor: text has edges finer
        // than 2×2 blocks.
        let mixed = double.mixedBlocks(x: two.x, y: two.y, width: two.width, height: two.height)
        #expect(mixed > 100, "\(mixed) mixed 2×2 blocks in the box")
    }
}
