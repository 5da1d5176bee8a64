// SPDX-License-Identifier: MIT

/// A rectangle in root-window pixels (a monitor, a window).
public struct PopupRect: Equatable, Sendable {
    /// The left edge.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// The width.
    public var width: Int
    /// The height.
    public var height: Int

    /// Makes a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the point is inside.
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }

    /// A rectangle of `width` × `height` at the point (`px`, `py`), opening left or up where
    /// the point is too close to the right or bottom edge, and kept inside `self`.
    public func place(width: Int, height: Int, atX px: Int, y py: Int) -> PopupRect {
        let width = min(width, self.width)
        let height = min(height, self.height)
        var left = px + width <= x + self.width ? px : px - width
        var top = py + height <= y + self.height ? py : py - height
        left = min(max(left, x), x + self.width - width)
        top = min(max(top, y), y + self.height - height)
        return PopupRect(x: left, y: top, width: width, height: height)
    }

    /// The smallest of `rects` that contains the point: client-defined monitors are listed
    /// beside the full-screen one they split.
    public static func smallest(containingX x: Int, y: Int, in rects: [PopupRect]) -> PopupRect? {
        rects.filter { $0.contains(x: x, y: y) }.min { $0.width * $0.height < $1.width * $1.height }
    }
}
