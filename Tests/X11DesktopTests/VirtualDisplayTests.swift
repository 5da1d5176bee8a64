// SPDX-License-Identifier: MIT
import TestSupport
import Testing

/// The X server fixture that the display-loss tests kill and bring back.
@Suite struct VirtualDisplayTests {
    /// A killed server's number stays taken for the servers other suites start meanwhile,
    /// and the same number can be started on again.
    @Test func aKilledDisplayKeepsItsNumberUntilItIsBack() throws {
        let first = try VirtualDisplay()
        let name = first.display
        first.killKeepingNumber()
        let other = try VirtualDisplay()
        #expect(other.display != name, "a new server took the killed one's number \(name)")
        let back = try VirtualDisplay(display: name)
        #expect(back.display == name)
        other.stop()
        back.stop()
    }
}
