// SPDX-License-Identifier: MIT
import Foundation

/// The GTK 3 form of the fill tests (`gtk_form.py` of `HelperPrograms`): what it wrote.
public enum GtkForm {
    /// The form as its file says: each entry's text and the activations (nil before the
    /// file is there).
    public static func read(_ path: String) -> (entries: [String], activated: Int)? {
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = object["entries"] as? [String], let activated = object["activated"] as? Int
        else { return nil }
        return (entries, activated)
    }
}
