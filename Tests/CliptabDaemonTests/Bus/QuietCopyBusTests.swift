// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Testing

/// `CopyQuiet` through the built daemon on a private bus and Xvfb: the copies `Copy`,
/// `CopyWithInputs` and `CopyRaw` make, each answered with the length of its text rather
/// than the text, and refused as they are.
@Suite(.serialized)
struct QuietCopyBusTests {
    static let error = CliptabBus.errorPrefix

    @Test func copyQuietCopiesAndAnswersTheLength() throws {
        let desk = try TemplateBusTests.desk()
        try desk.ownClipboardElsewhere(Array("from xclip ✓".utf8))
        let filled = "Dear Ann, from xclip ✓!"
        #expect(
            try desk.call("CopyQuiet", [s("t"), i(0), i(0), inputs(["Name": "Ann"]), b(false)])
                == [t(UInt64(filled.utf8.count))])
        #expect(try desk.clipboard() == filled)
        #expect(try desk.call("CopyQuiet", [s("t"), i(0), i(2), inputs([:]), b(true)]) == [t(5)])
        #expect(try desk.clipboard() == "{{x}}")
        // Refused as CopyWithInputs and CopyRaw refuse, leaving the clipboard as it was.
        let missing = TemplateBusTests.failure {
            try desk.call("CopyQuiet", [s("t"), i(0), i(1), inputs([:]), b(false)])
        }
        #expect(missing?.name == Self.error + "InputRequired")
        let rawWithInputs = TemplateBusTests.failure {
            try desk.call("CopyQuiet", [s("t"), i(0), i(2), inputs(["Who": "Bo"]), b(true)])
        }
        #expect(rawWithInputs?.name == Self.error + "InvalidArgument")
        #expect(try desk.clipboard() == "{{x}}")
    }
}
