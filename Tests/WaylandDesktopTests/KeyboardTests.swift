// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing
import WaylandDesktop

/// The paste keyboard: a whole keymap from libxkbcommon, keys found by keysym, the virtual
/// keyboard and keystroke marks on headless sway, the activated window's app id.
@Suite(.serialized)
struct KeyboardTests {
    @Test("The keymap is the whole layout, and keys are found by keysym")
    func wholeKeymap() throws {
        let us = try WaylandKeymap(KeymapNames(rules: "evdev", model: "pc105", layout: "us"))
        // A full layout has some hundred keys with symbols (a tiny one: the chord's three).
        #expect(us.keyCount > 100)
        #expect(us.byteCount > 10_000)
        #expect(try us.place(of: 0x76) == WaylandKeymap.KeyPlace(code: 47, shifted: false, layout: 0))
        #expect(try us.place(of: 0x21) == WaylandKeymap.KeyPlace(code: 2, shifted: true, layout: 0))
        #expect(try us.modifierMask(of: 0xffe3) != 0)
        #expect(try us.modifierMask(of: 0xffe3) != us.modifierMask(of: 0xffe1))
        #expect(throws: KeyboardError.keyNotInKeymap("keysym 0x1004e00")) { try us.place(of: 0x0100_4E00) }
        #expect(throws: KeyboardError.unknownModifier("keysym 0x76")) { try us.modifierMask(of: 0x76) }
        // Beside a Cyrillic first layout, the Latin v is in the second.
        let ruUS = try WaylandKeymap(KeymapNames(layout: "ru,us"))
        #expect(try ruUS.place(of: 0x76) == WaylandKeymap.KeyPlace(code: 47, shifted: false, layout: 1))
        #expect(ruUS.layoutCount == 2)
        #expect(throws: KeyboardError.self) { try WaylandKeymap(KeymapNames(layout: "no-such-layout")) }
    }

    @Test("A connection reads the seat's keymap: the layout of the keyboard that typed last")
    func seatKeymap() throws {
        let harness = try WaylandHarness()
        // Headless, the seat has no keyboard until one is plugged in.
        #expect(harness.service.seatKeymap == nil)
        // The person's keyboard: Dvorak, where v is on the key of US '.' (evdev 52, not 47).
        let dvorak = try WaylandKeymap(KeymapNames(layout: "us", variant: "dvorak"))
        #expect(try dvorak.place(of: 0x76).code == 52)
        let person = try harness.connectAnother()
        let keyboard = try person.makeVirtualKeyboard(keymap: dvorak)
        _ = try keyboard.type(0xffe1, modifierKeysyms: [])
        person.processEvents(now: MonotonicClock.milliseconds())

        let later = try harness.connectAnother()
        guard case .success(let seats)? = later.seatKeymap else {
            Issue.record("no keymap from the seat: \(String(describing: later.seatKeymap))")
            return
        }
        #expect(seats.names == nil)
        #expect(seats.origin(environment: [:]) == "the seat's keymap")
        #expect(try seats.place(of: 0x76).code == 52)
        #expect(seats.keyCount > 100)
        // The connection made before the keyboard was plugged in hears of it too.
        #expect(
            harness.pump {
                if case .success(let keymap)? = harness.service.seatKeymap {
                    return (try? keymap.place(of: 0x76).code) == 52
                }
                return false
            })
    }

    @Test("A keymap the compositor sends that is not one is refused, named, and harms nothing")
    func badSeatKeymaps() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-keymap")
        let fd = open(directory.appending("not-a-keymap"), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        #expect(fd >= 0)
        defer { close(fd) }
        let garbage = Array("xkb_keymap { this is not a keymap ".utf8) + [0]
        #expect(garbage.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == garbage.count)
        do {
            _ = try WaylandKeymap(compositorKeymap: fd, size: UInt32(garbage.count))
            Issue.record("a keymap that is not one was compiled")
        } catch {
            if case .keymapFailed(let names, "compile", _) = error {
                #expect(names == "the seat's keymap (35 bytes)")
            } else {
                Issue.record("refused at the wrong step: \(error)")
            }
        }
        // Bigger than any keymap: refused before it is mapped.
        #expect(
            throws: KeyboardError.keymapFailed(
                names: "the seat's keymap (16777216 bytes)", stage: "size", code: EFBIG)
        ) {
            try WaylandKeymap(compositorKeymap: fd, size: 16 << 20)
        }
        #expect(
            throws: KeyboardError.keymapFailed(
                names: "the seat's keymap (0 bytes)", stage: "size", code: EFBIG)
        ) {
            try WaylandKeymap(compositorKeymap: fd, size: 0)
        }
        // Longer than the file: the pages past its end cannot be read, so mapping them is refused
        // or compiling them fails; either way an error, never a crash.
        #expect(throws: KeyboardError.self) { try WaylandKeymap(compositorKeymap: -1, size: 100) }
    }

    @Test("Reads asked for after a chord carry its mark; the activated window is named")
    func marksAndAppID() throws {
        let harness = try WaylandHarness()
        let service = harness.service
        #expect(service.offersVirtualKeyboard)
        #expect(service.followsWindows)
        let keyboard = try service.makeVirtualKeyboard(keymap: WaylandKeymap())
        #expect(keyboard.keymap.keyCount > 100)

        _ = try service.own(
            .clipboard, formats: WaylandSelectionService.textFormats(Array("x".utf8)), secret: false)
        #expect(try harness.paste(["--no-newline"]).outputText == "x")
        #expect(harness.pump { harness.transfers.count == 1 })
        #expect(harness.transfers.last?.keystrokesBefore == 0)
        #expect(service.nextKeystrokeMark == 1)
        // No window has the focus: the chord goes nowhere, the mark is answered all the same.
        #expect(try keyboard.type(0x76, modifierKeysyms: [0xffe3]) == 1)
        #expect(try harness.paste(["--no-newline"]).outputText == "x")
        #expect(harness.pump { harness.transfers.count == 2 })
        #expect(harness.transfers.last?.keystrokesBefore == 1)
        #expect(service.nextKeystrokeMark == 2)

        #expect(service.activatedAppID == nil)
        let foot = try harness.spawn("foot", ["sleep", "60"])
        defer { foot.terminate(graceMilliseconds: 1000) }
        #expect(harness.pump { service.activatedAppID == "foot" })
        #expect(service.windowCount == 1)
        foot.terminate(graceMilliseconds: 1000)
        #expect(harness.pump { service.windowCount == 0 && service.activatedAppID == nil })
    }
}
