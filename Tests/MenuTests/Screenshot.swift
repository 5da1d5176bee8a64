// SPDX-License-Identifier: MIT
import Glibc
import TestSupport

/// A 24-bit TrueColor image read from an XWD file (what `xwd -root` writes).
struct Screenshot {
    /// Width in pixels.
    let width: Int
    /// Height in pixels.
    let height: Int
    private let pixels: [UInt32]

    /// Reads `path`: a big-endian header of 25 numbers, the window name, the colour map, then
    /// rows of 32-bit pixels in the byte order the header names.
    init(xwdFile path: String) throws {
        guard let file = fopen(path, "rb") else { throw FixtureError("cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        func field(_ index: Int) -> Int {
            let offset = index * 4
            return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
        }
        guard bytes.count >= 100 else { throw FixtureError("\(path) is too short for an XWD header") }
        let headerSize = field(0)
        width = field(4)
        height = field(5)
        let byteOrder = field(7)
        let bitsPerPixel = field(11)
        let bytesPerLine = field(12)
        let colours = field(19)
        guard bitsPerPixel == 32 else {
            throw FixtureError("expected 32 bits per pixel, found \(bitsPerPixel)")
        }
        let start = headerSize + colours * 12
        guard bytes.count >= start + bytesPerLine * height else { throw FixtureError("\(path) is truncated") }
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let at = start + y * bytesPerLine + x * 4
                let b = (0..<4).map { UInt32(bytes[at + $0]) }
                let value =
                    byteOrder == 0
                    ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[3] | b[2] << 8 | b[1] << 16 | b[0] << 24
                pixels[y * width + x] = value & 0x00ff_ffff
            }
        }
        self.pixels = pixels
    }

    /// The pixel at (x, y) as 0xRRGGBB.
    func pixel(_ x: Int, _ y: Int) -> UInt32 { pixels[y * width + x] }

    /// The pixels of a rectangle.
    func pixels(x: Int, y: Int, width: Int, height: Int) -> [UInt32] {
        var found: [UInt32] = []
        for row in y..<(y + height) {
            for column in x..<(x + width) { found.append(pixel(column, row)) }
        }
        return found
    }
}
