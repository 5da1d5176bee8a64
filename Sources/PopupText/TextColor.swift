// SPDX-License-Identifier: MIT
import MenuModel

/// A colour of the settings, as cairo's components.
public struct TextColor: Equatable, Sendable {
    /// Red, green and blue from 0 to 1.
    public let red: Double, green: Double, blue: Double

    /// The settings' colour `color`.
    public init(_ color: MenuColor) {
        red = Double(color.red) / 255
        green = Double(color.green) / 255
        blue = Double(color.blue) / 255
    }
}
