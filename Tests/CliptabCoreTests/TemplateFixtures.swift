// SPDX-License-Identifier: MIT
import Foundation

/// Files the template tests read: the system's time zone data.
enum TemplateFixtures {
    /// The TZif bytes of zone `name` from the system's zoneinfo.
    static func zoneBytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + name)))
    }
}
