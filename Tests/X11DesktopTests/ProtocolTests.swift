// SPDX-License-Identifier: MIT
import Foundation
import Posix
import TestSupport
import Testing
import X11Desktop

/// A bare Xlib requestor (Python ctypes over libX11) for requests no common client sends.
///
/// Those are MULTIPLE, an obsolete requestor's property None, and a request older than the
/// selection. Prints one JSON object: the notification's property and what it pointed to.
private let rawRequestor =
    xlibPythonPrelude + HelperPrograms.source("raw_requestor.py")

/// ICCCM details no common client exercises, checked with a bare Xlib requestor.
@Suite(.serialized)
struct ProtocolTests {
    private static let python3 = python(running: "import ctypes, ctypes.util, json")

    private func request(_ mode: String, text: [UInt8]) throws -> [String: Any] {
        let harness = try Harness()
        try harness.service.own(.clipboard, text: text, secret: false)
        let python3 = try #require(Self.python3, "no python3 with ctypes")
        let result = try harness.run([python3, "-c", rawRequestor, mode])
        #expect(result.succeeded, "\(result.errorText)")
        let object = try JSONSerialization.jsonObject(with: Data(result.output))
        return try #require(object as? [String: Any])
    }

    @Test func multipleConvertsEachPairAndRefusesTheBadOnes() throws {
        let text = Array("é 世界".utf8)
        let result = try request("multiple", text: text)
        #expect(result["property"] as? String == "PARAMS")
        let params = result["params"] as? [String: Any]
        #expect(params?["type"] as? String == "ATOM_PAIR")
        // Failed pairs (unknown target, nested MULTIPLE) have their property set to None.
        let expected: [String?] = [
            "UTF8_STRING", "P1", "image/png", nil, "STRING", "P3", "MULTIPLE", nil, "TIMESTAMP", "P5",
        ]
        #expect((params?["atoms"] as? [Any])?.map { $0 as? String } == expected)
        let utf8 = result["P1"] as? [String: Any]
        #expect(utf8?["type"] as? String == "UTF8_STRING")
        #expect(utf8?["hex"] as? String == text.map { String(format: "%02x", $0) }.joined())
        let latin1 = result["P3"] as? [String: Any]
        #expect(latin1?["type"] as? String == "STRING")
        #expect(latin1?["hex"] as? String == "e9203f3f")
        #expect(result["P2"] is NSNull)
        let timestamp = result["P5"] as? [String: Any]
        #expect(timestamp?["type"] as? String == "INTEGER")
        #expect((timestamp?["values"] as? [Any])?.count == 1)
    }

    @Test func multipleWithoutPropertyIsRefused() throws {
        let result = try request("multiple-without-property", text: Sample.ascii)
        #expect(result["property"] is NSNull)
    }

    @Test func obsoleteRequestorGetsTheTargetAsProperty() throws {
        let result = try request("obsolete", text: Sample.ascii)
        #expect(result["property"] as? String == "UTF8_STRING")
        let value = result["value"] as? [String: Any]
        #expect(value?["hex"] as? String == Sample.ascii.map { String(format: "%02x", $0) }.joined())
    }

    @Test func requestOlderThanTheSelectionIsRefused() throws {
        let result = try request("old-time", text: Sample.ascii)
        #expect(result["property"] is NSNull)
    }
}
