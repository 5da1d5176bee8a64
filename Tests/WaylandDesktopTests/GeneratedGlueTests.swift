// SPDX-License-Identifier: MIT
import Foundation
import Posix
import TestSupport
import Testing

/// The committed wayland-scanner output is what `protocols/regenerate` makes of the
/// committed protocol descriptions (SwiftPM cannot run the scanner itself).
struct GeneratedGlueTests {
    @Test("The C glue of the data-control, virtual-keyboard and foreign-toplevel protocols is current")
    func glueIsCurrent() throws {
        let glue = try GeneratedGlue(module: "CWayland")
        #expect(
            glue.names == [
                "ext-data-control-v1-client-protocol.h", "ext-data-control-v1-protocol.c",
                "virtual-keyboard-unstable-v1-client-protocol.h", "virtual-keyboard-unstable-v1-protocol.c",
                "wlr-data-control-unstable-v1-client-protocol.h", "wlr-data-control-unstable-v1-protocol.c",
                "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h",
                "wlr-foreign-toplevel-management-unstable-v1-protocol.c",
            ])
        #expect(glue.stale.isEmpty, "\(glue.stale) differ from protocols/regenerate's output: run it")
    }
}
