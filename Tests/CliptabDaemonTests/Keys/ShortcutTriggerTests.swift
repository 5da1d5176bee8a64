// SPDX-License-Identifier: MIT
import CliptabDaemon
import Testing

/// The keys of `[keys]` in the XDG shortcuts specification's trigger syntax, the
/// GlobalShortcuts portal's `preferred_trigger`.
struct ShortcutTriggerTests {
    @Test(arguments: [
        ("Super+Alt+I", "LOGO+ALT+i"), ("Super+Alt+1", "LOGO+ALT+1"), ("Ctrl+Shift+v", "CTRL+SHIFT+v"),
        ("ctrl + alt + F5", "CTRL+ALT+F5"), ("Super+Return", "LOGO+Return"), ("Alt+Page_Up", "ALT+Page_Up"),
        ("Super+super+x", "LOGO+x"), ("Control+a", "CTRL+a"), ("F12", "F12"),
    ])
    func converted(keys: String, trigger: String) {
        #expect(ShortcutTrigger.preferred(for: keys) == trigger)
    }

    /// Keys the specification cannot say go without a preferred trigger: the desktop's
    /// dialog lets the person choose.
    @Test(arguments: ["Hyper+x", "Super+", "", "Super+Alt+ä", "Super+a b", "Super+Alt+I+"])
    func notConverted(keys: String) {
        #expect(ShortcutTrigger.preferred(for: keys) == nil)
    }
}
