// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing

/// `cliptab menu` on rows of one line of hundreds of kilobytes, on a real Xvfb: the popup
/// draws them cut to the window and goes on working (a line of 300 KB or more once made it
/// abort inside libX11, SIGABRT, before its window showed).
@Suite(.serialized)
struct MenuLongRowTests {
    /// `count` distinct characters no installed font has (the Private Use Areas of the BMP
    /// and of plane 15), as one line.
    static func unknownCharacters(_ count: Int) -> String {
        var text = String.UnicodeScalarView()
        var value: UInt32 = 0xE000
        var made = 0
        while made < count {
            if let scalar = Unicode.Scalar(value) {
                text.append(scalar)
                made += 1
            }
            value = value == 0xF8FF ? 0xF0000 : value + 1
        }
        return String(text)
    }

    @Test func longSingleLineRowsAreDrawnCutAndTheMenuSurvives() throws {
        let fixture = try MenuFixture()
        #expect(try fixture.cliptab("create", "t").exitCode == 0)
        try fixture.cliptab("add", "t", "short")
        for text in [
            String(repeating: "x", count: 400_000), String(repeating: "y", count: 1_000_000),
            Self.unknownCharacters(20_000),
        ] {
            let added = try fixture.cliptab("add", "t", "--file", "-", input: text)
            #expect(added.exitCode == 0, "\(added.errorText)")
        }
        try fixture.tool("xdotool", "mousemove", "40", "30")
        let (menu, window) = try fixture.openMenu("t")
        let frame = try fixture.geometry(of: window)
        // Four rows under the prompt line.
        let lineHeight = frame.height / 5
        #expect(lineHeight * 5 == frame.height && lineHeight >= 10)
        var shot = try fixture.screenshot()
        let deadline = MonotonicClock.milliseconds() + 5000
        while Set(shot.pixels(x: frame.x, y: frame.y, width: frame.width, height: lineHeight)).count < 2
            && MonotonicClock.milliseconds() < deadline
        {
            usleep(50_000)
            shot = try fixture.screenshot()
        }
        for row in 2...4 {
            let line = shot.pixels(
                x: frame.x, y: frame.y + row * lineHeight, width: frame.width, height: lineHeight)
            let drawn = line.filter { $0 != MenuColours.background }.count
            #expect(drawn > 50, "row line \(row) has \(drawn) drawn pixels")
            // Cut to the window: the last pixels of the line, in the padding, are background.
            let edge = shot.pixels(
                x: frame.x + frame.width - 2, y: frame.y + row * lineHeight, width: 2, height: lineHeight)
            #expect(edge.allSatisfy { $0 == MenuColours.background }, "row line \(row) runs into the edge")
        }
        // Still answering: the filter finds the 1 MB row, Enter copies it whole.
        try fixture.tool("xdotool", "type", "yyy")
        try fixture.tool("xdotool", "key", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.clipboard().utf8.count == 1_000_000)
        #expect(try fixture.grabIsFree())
    }
}
