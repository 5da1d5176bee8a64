// SPDX-License-Identifier: MIT
import CWaylandPopup
import Glibc

/// The seat's keys read as the compositor's keymap and the locale's compose table say: each
/// press (and repeat of a held key) becomes a keysym, the text it types and whether Control
/// was held.
///
/// Owns libxkbcommon's context, the compiled keymap, its state and the compose state; they
/// are freed in `deinit`. The keymap is compiled when first needed (a key, or `load` after the
/// first frame): it costs milliseconds the first frame does not need.
final class PopupKeyboard {
    private let context: OpaquePointer?
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?
    private var compose: OpaquePointer?
    /// The keymap sent last, not compiled yet.
    private var pendingKeymap: String?
    private var loaded = false
    /// The modifiers sent last, kept for a keymap compiled after them.
    private var modifiers: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    /// Keys a second and the milliseconds before the first repeat (the compositor's).
    private var repeatRate: UInt32 = 0
    private var repeatDelay: UInt32 = 0
    /// The key held (its evdev code) and when it repeats next, in `MonotonicClock` milliseconds.
    private var held: (key: UInt32, at: UInt64)?

    /// A keyboard with no keymap yet.
    init() { context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) }

    deinit {
        xkb_compose_state_unref(compose)
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// The compositor's keymap (xkb v1 text), compiled now if input was loaded already.
    func keymapSent(_ text: String) {
        pendingKeymap = text
        if loaded {
            loaded = false
            load()
        }
    }

    /// Compiles the keymap sent last and the locale's compose table, once.
    func load() {
        guard !loaded, let context else { return }
        loaded = true
        if let text = pendingKeymap,
            let compiled = xkb_keymap_new_from_string(
                context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        {
            xkb_state_unref(state)
            xkb_keymap_unref(keymap)
            keymap = compiled
            state = xkb_state_new(compiled)
            update(modifiers)
        }
        pendingKeymap = nil
        if compose == nil {
            // The locale the C library would take, as xkbcommon wants it named.
            let names: [String] = ["LC_ALL", "LC_CTYPE", "LANG"]
            let locale =
                names.lazy.compactMap { getenv($0).map { String(cString: $0) } }.first { !$0.isEmpty } ?? "C"
            if let table = xkb_compose_table_new_from_locale(context, locale, XKB_COMPOSE_COMPILE_NO_FLAGS) {
                compose = xkb_compose_state_new(table, XKB_COMPOSE_STATE_NO_FLAGS)
                xkb_compose_table_unref(table)
            }
        }
    }

    /// The modifiers the compositor sent: depressed, latched, locked, group.
    func modifiersSent(_ values: (UInt32, UInt32, UInt32, UInt32)) {
        modifiers = values
        update(values)
    }

    private func update(_ values: (UInt32, UInt32, UInt32, UInt32)) {
        guard let state else { return }
        xkb_state_update_mask(state, values.0, values.1, values.2, 0, 0, values.3)
    }

    /// The compositor's repeat: `rate` keys a second (0: none) after `delay` milliseconds.
    func repeatSent(rate: UInt32, delay: UInt32) {
        repeatRate = rate
        repeatDelay = delay
    }

    /// The keyboard left (or the overlay went): no key is held.
    func left() { held = nil }

    /// Key `code` (evdev) went down (`pressed`) or up at `now`; the key's event, if it types one.
    func key(_ code: UInt32, pressed: Bool, now: UInt64) -> LayerPopupEvent? {
        guard pressed else {
            if held?.key == code { held = nil }
            return nil
        }
        let event = read(code)
        if let keymap, repeatRate > 0, xkb_keymap_key_repeats(keymap, code + 8) != 0 {
            held = (code, now + UInt64(repeatDelay))
        }
        return event
    }

    /// Milliseconds from `now` until the held key repeats, nil when none is held.
    func repeatTimeout(now: UInt64) -> Int32? {
        guard let held, repeatRate > 0 else { return nil }
        return held.at > now ? Int32(clamping: held.at - now) : 0
    }

    /// The held key's repeat, when it is due at `now`.
    func repeatDue(now: UInt64) -> LayerPopupEvent? {
        guard let held, repeatRate > 0, now >= held.at else { return nil }
        self.held = (held.key, now + UInt64(1000 / repeatRate))
        return read(held.key)
    }

    /// What key `code` types in the current state, through the compose table.
    private func read(_ code: UInt32) -> LayerPopupEvent? {
        load()
        guard let state else { return nil }
        let keycode = code + 8
        var keysym = xkb_state_key_get_one_sym(state, keycode)
        let control = xkb_state_mod_name_is_active(state, XKB_MOD_NAME_CTRL, XKB_STATE_MODS_EFFECTIVE) > 0
        if let compose, xkb_compose_state_feed(compose, keysym) == XKB_COMPOSE_FEED_ACCEPTED {
            switch xkb_compose_state_get_status(compose) {
            case XKB_COMPOSE_COMPOSING:
                return nil
            case XKB_COMPOSE_COMPOSED:
                keysym = xkb_compose_state_get_one_sym(compose)
                let text = Self.text { xkb_compose_state_get_utf8(compose, $0, $1) }
                xkb_compose_state_reset(compose)
                return .key(keysym: keysym, text: text, control: control)
            case XKB_COMPOSE_CANCELLED:
                xkb_compose_state_reset(compose)
                return nil
            default:
                break
            }
        }
        return .key(
            keysym: keysym, text: Self.text { xkb_state_key_get_utf8(state, keycode, $0, $1) },
            control: control)
    }

    /// The UTF-8 text `get` writes into a buffer of 64 bytes.
    private static func text(_ get: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = buffer.withUnsafeMutableBufferPointer { get($0.baseAddress!, $0.count) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The keymap text of the US layout (evdev rules), as a compositor sends it: for the tests.
    package static func usKeymapText() -> String? {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        defer { xkb_context_unref(context) }
        var names = xkb_rule_names()
        let made = "evdev".withCString { rules in
            "us".withCString { layout in
                names.rules = rules
                names.layout = layout
                return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
            }
        }
        guard let made else { return nil }
        defer { xkb_keymap_unref(made) }
        guard let text = xkb_keymap_get_as_string(made, XKB_KEYMAP_FORMAT_TEXT_V1) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }
}
