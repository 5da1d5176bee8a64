// SPDX-License-Identifier: MIT
import TestSupport

/// A binary PPM image (P6, 8 bits a channel), as `grim -t ppm` writes it.
struct PortablePixmap: Equatable {
    /// Width in pixels.
    let width: Int
    /// Height in pixels.
    let height: Int
    private let pixels: [UInt32]

    /// Reads `bytes`: "P6", width, height, the largest value (255), one blank, then RGB rows.
    init(_ bytes: [UInt8]) throws {
        var at = 0
        func word() -> String {
            while at < bytes.count,
                bytes[at] == 0x20 || bytes[at] == 0x0a || bytes[at] == 0x09 || bytes[at] == 0x0d
            {
                at += 1
            }
            let start = at
            while at < bytes.count,
                !(bytes[at] == 0x20 || bytes[at] == 0x0a || bytes[at] == 0x09 || bytes[at] == 0x0d)
            {
                at += 1
            }
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }
        guard word() == "P6", let width = Int(word()), let height = Int(word()), word() == "255" else {
            throw FixtureError("not an 8-bit P6 image")
        }
        at += 1
        guard bytes.count >= at + width * height * 3 else { throw FixtureError("the image is truncated") }
        var pixels = [UInt32](repeating: 0, count: width * height)
        for index in 0..<(width * height) {
            let base = at + index * 3
            pixels[index] = UInt32(bytes[base]) << 16 | UInt32(bytes[base + 1]) << 8 | UInt32(bytes[base + 2])
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at (x, y) as 0xRRGGBB.
    func pixel(_ x: Int, _ y: Int) -> UInt32 { pixels[y * width + x] }

    /// The smallest rectangle holding every pixel of `color`, nil when there is none.
    func bounds(of color: UInt32) -> (x: Int, y: Int, width: Int, height: Int)? {
        var (left, top, right, bottom) = (width, height, -1, -1)
        for y in 0..<height {
            for x in 0..<width where pixels[y * width + x] == color {
                left = min(left, x)
                right = max(right, x)
                top = min(top, y)
                bottom = max(bottom, y)
            }
        }
        return right < 0 ? nil : (left, top, right - left + 1, bottom - top + 1)
    }

    /// How many pixels of the rectangle are not `color`.
    func count(notMatching color: UInt32, x: Int, y: Int, width: Int, height: Int) -> Int {
        var found = 0
        for row in y..<(y + height) {
            for column in x..<(x + width) where pixel(column, row) != color { found += 1 }
        }
        return found
    }

    /// How many 2×2 blocks of the rectangle (from its corner) hold more than one colour: a
    /// surface drawn at scale 1 and doubled by the compositor has none.
    func mixedBlocks(x: Int, y: Int, width: Int, height: Int) -> Int {
        var found = 0
        for row in stride(from: y, to: y + height - 1, by: 2) {
            for column in stride(from: x, to: x + width - 1, by: 2) {
                let first = pixel(column, row)
                if pixel(column + 1, row) != first || pixel(column, row + 1) != first
                    || pixel(column + 1, row + 1) != first
                {
                    found += 1
                }
            }
        }
        return found
    }
}
