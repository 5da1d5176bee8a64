// SPDX-License-Identifier: MIT
import CliptabConfig
import KeyChords
import Quoting

/// One line of `[keys]`: the keys, what they do, and where the line is.
public struct KeyBinding: Equatable, Sendable {
    /// The keys, read by `KeyChords` (modifier keysyms and the key's keysym).
    public var chord: KeyChord
    /// The keys as `cliptab.conf` names them, normalised (`Super+Alt+I`).
    public var keys: String
    /// What the keys do.
    public var action: KeyAction
    /// The id binders and the bus know the binding by (`paste-snippets-sig`).
    public var id: String
    /// The line of the file, counted from 1.
    public var line: Int

    /// The modifiers `keys` names, in the order they are written: Super, Ctrl, Alt, Shift.
    public enum Modifier: String, CaseIterable, Sendable {
        /// The Super (Windows, logo) key.
        case superKey = "Super"
        /// Control.
        case ctrl = "Ctrl"
        /// Alt.
        case alt = "Alt"
        /// Shift.
        case shift = "Shift"

        /// The name `KeyChord`'s normalised description gives it (`super`).
        public var chordName: String { rawValue.lowercased() }
    }

    /// Reads the line `keys = action` at `line`.
    public init(keys text: String, action value: String, line: Int) throws(ConfigValueError) {
        let chord: KeyChord
        do {
            chord = try KeyChord(parsing: text)
        } catch {
            throw ConfigValueError(
                "\(error.description); keys are Super, Alt, Ctrl or Shift joined by \"+\" to one key named as "
                    + "xkbcommon names it (Super+Alt+I, Ctrl+Alt+F5)")
        }
        guard !chord.modifiers.isEmpty else {
            throw ConfigValueError(
                "\(Quotation.quoted(text)) has no modifier: a key alone would be taken from every program; "
                    + "add Super, Alt, Ctrl or Shift (Super+Alt+I)")
        }
        self.chord = chord
        action = try KeyAction(parsing: value)
        id = action.id
        self.line = line
        let key = chord.description.split(separator: "+").last.map(String.init) ?? ""
        keys = (Self.modifiers(of: chord).map(\.rawValue) + [key.count == 1 ? key.uppercased() : key])
            .joined(separator: "+")
    }

    /// The modifiers, in `Modifier`'s order.
    public var modifiers: [Modifier] { Self.modifiers(of: chord) }

    private static func modifiers(of chord: KeyChord) -> [Modifier] {
        let names = chord.description.split(separator: "+").dropLast().map(String.init)
        return Modifier.allCases.filter { names.contains($0.chordName) }
    }

    /// The key's keysym name as xkbcommon writes it (`i`, `F5`, `Insert`).
    public var keyName: String { chord.description.split(separator: "+").last.map(String.init) ?? "" }

    /// What a binder is asked to bind.
    public var request: KeyBindingRequest {
        KeyBindingRequest(id: id, keys: keys, description: action.description)
    }

    /// Reads the entries of `[keys]`; problems (a bad line, keys set twice under two
    /// spellings) are added to `problems` and their lines left out.
    static func read(_ entries: [ConfigEntry], file: String, problems: inout [ConfigProblem]) -> [KeyBinding]
    {
        var bindings: [KeyBinding] = []
        var ids: [String: Int] = [:]
        for entry in entries {
            do {
                var binding = try KeyBinding(keys: entry.key, action: entry.value, line: entry.line)
                if let earlier = bindings.first(where: { $0.keys == binding.keys }) {
                    problems.append(
                        ConfigProblem(
                            file: file, line: entry.line,
                            message: "\(binding.keys) is already bound on line \(earlier.line); keep one"))
                    continue
                }
                // Two keys for one action: the second gets its own id.
                let count = ids[binding.id, default: 0] + 1
                ids[binding.id] = count
                if count > 1 { binding.id += "-\(count)" }
                bindings.append(binding)
            } catch {
                problems.append(
                    ConfigProblem(file: file, line: entry.line, message: "\(entry.key): \(error.message)"))
            }
        }
        return bindings
    }
}
