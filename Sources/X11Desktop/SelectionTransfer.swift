// SPDX-License-Identifier: MIT

/// One answer to another client's request for a selection this service owns: who asked,
/// which ownership answered, and whether the text itself was handed over.
///
/// A request for a text target reports twice when it succeeds: once with
/// `textDelivered` when the requestor has the whole text (at once, or after the last INCR
/// chunk, also inside MULTIPLE), and once as an answered request. Other targets (TARGETS,
/// TIMESTAMP) and refusals report once, without `textDelivered`.
public struct SelectionTransfer: Equatable, Sendable {
    /// The selection asked for.
    public let selection: SelectionName
    /// The requestor's window (often a hidden helper window of the program that pastes).
    public let requestor: WindowID
    /// The acquisition time of the ownership that answered: tells one copy from the next.
    public let acquisitionTime: ServerTime
    /// True when the requestor now holds the complete text.
    public let textDelivered: Bool

    /// Makes a report.
    public init(
        selection: SelectionName, requestor: WindowID, acquisitionTime: ServerTime, textDelivered: Bool
    ) {
        self.selection = selection
        self.requestor = requestor
        self.acquisitionTime = acquisitionTime
        self.textDelivered = textDelivered
    }
}
