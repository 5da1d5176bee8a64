// SPDX-License-Identifier: MIT

/// Names one taking of a selection by `WaylandSelectionService.own`, so that a release
/// meant for it does not drop a later one.
public struct WaylandOwnershipToken: Hashable, Sendable, CustomStringConvertible {
    /// The number of the taking, counted from 1 per service.
    public let serial: UInt64

    /// Makes a token (the service makes them; tests may too).
    public init(serial: UInt64) { self.serial = serial }

    /// "ownership N".
    public var description: String { "ownership \(serial)" }
}
