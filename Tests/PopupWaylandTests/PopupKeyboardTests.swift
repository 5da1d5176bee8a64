// SPDX-License-Identifier: MIT
import Testing

@testable import PopupWayland

/// The Wayland popup's keys read in Swift with libxkbcommon: text through the keymap and the
/// modifiers, and a held key's repeat on a clock the test drives.
@Suite struct PopupKeyboardTests {
    /// evdev codes of the US layout.
    static let a: UInt32 = 30, shiftMask: UInt32 = 1, controlMask: UInt32 = 4

    func keyboard() throws -> PopupKeyboard {
        let keyboard = PopupKeyboard()
        keyboard.keymapSent(try #require(PopupKeyboard.usKeymapText()))
        return keyboard
    }

    @Test func keysTypeThroughTheKeymapAndModifiers() throws {
        let keyboard = try keyboard()
        #expect(keyboard.key(Self.a, pressed: true, now: 0) == .key(keysym: 0x61, text: "a", control: false))
        #expect(keyboard.key(Self.a, pressed: false, now: 1) == nil)
        keyboard.modifiersSent((Self.shiftMask, 0, 0, 0))
        #expect(keyboard.key(Self.a, pressed: true, now: 2) == .key(keysym: 0x41, text: "A", control: false))
        keyboard.modifiersSent((Self.controlMask, 0, 0, 0))
        let control = keyboard.key(Self.a, pressed: true, now: 3)
        guard case .key(0x61, _, true) = control else {
            Issue.record("Control+a read as \(String(describing: control))")
            return
        }
    }

    /// A held key repeats after the delay, then at the rate, until it is released or the
    /// keyboard leaves; with no repeat rate it never does.
    @Test func heldKeyRepeatsOnTheCompositorsTimes() throws {
        let keyboard = try keyboard()
        keyboard.repeatSent(rate: 25, delay: 600)
        _ = keyboard.key(Self.a, pressed: true, now: 1000)
        #expect(keyboard.repeatTimeout(now: 1000) == 600)
        #expect(keyboard.repeatDue(now: 1599) == nil)
        #expect(keyboard.repeatDue(now: 1600) == .key(keysym: 0x61, text: "a", control: false))
        #expect(keyboard.repeatTimeout(now: 1600) == 40)
        #expect(keyboard.repeatDue(now: 1640) != nil)
        _ = keyboard.key(Self.a, pressed: false, now: 1650)
        #expect(keyboard.repeatTimeout(now: 1650) == nil && keyboard.repeatDue(now: 5000) == nil)
        _ = keyboard.key(Self.a, pressed: true, now: 6000)
        keyboard.left()
        #expect(keyboard.repeatDue(now: 9000) == nil)
        keyboard.repeatSent(rate: 0, delay: 600)
        _ = keyboard.key(Self.a, pressed: true, now: 10_000)
        #expect(keyboard.repeatTimeout(now: 10_000) == nil)
    }
}
