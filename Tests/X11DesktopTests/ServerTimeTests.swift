// SPDX-License-Identifier: MIT
import Testing
import X11Desktop

/// X server timestamps are compared as the protocol says: modulo 2³², the later being the
/// one less than 2³¹ ms ahead, so that the wrap after 49.7 days does not make a new request
/// look older than an ownership taken just before it.
struct ServerTimeTests {
    func time(_ value: UInt) -> ServerTime { ServerTime(rawValue: value) }

    @Test func ordinaryTimesCompareAsNumbers() {
        #expect(time(1_000) < time(2_000))
        #expect(!(time(2_000) < time(1_000)))
        #expect(!(time(5) < time(5)))
        #expect(time(5) <= time(5))
    }

    @Test func timesAcrossTheWrapCompareModulo32Bits() {
        let beforeWrap = time(0xFFFF_FF00)
        let afterWrap = time(0x0000_0100)
        #expect(beforeWrap < afterWrap)
        #expect(!(afterWrap < beforeWrap))
        #expect(afterWrap > beforeWrap)
        // Half the circle apart: the one 2³¹ - 1 ahead is later, 2³¹ ahead is not.
        #expect(time(0) < time((1 << 31) - 1))
        #expect(!(time(0) < time(1 << 31)))
    }

    @Test func onlyTheProtocolsThirtyTwoBitsCount() {
        // A `Time` wider than 32 bits holds nothing the server sent.
        #expect(time(0x1_0000_0005).card32 == 5)
        #expect(!(time(0x1_0000_0005) < time(5)) && !(time(5) < time(0x1_0000_0005)))
    }
}
