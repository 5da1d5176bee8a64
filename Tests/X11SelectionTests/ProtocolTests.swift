// SPDX-License-Identifier: MIT
import Foundation
import Posix
import TestSupport
import Testing
import X11Selection

/// A bare Xlib requestor (Python ctypes over libX11) for requests no common client sends.
///
/// Those are MULTIPLE, an obsolete requestor's property None, and a request older than the
/// selection. Prints one JSON object: the notification's property and what it pointed to.
private let rawRequestor =
    xlibPythonPrelude + #"""
        dpy = x.XOpenDisplay(None)
        win = x.XCreateSimpleWindow(dpy, x.XDefaultRootWindow(dpy), 0, 0, 1, 1, 0, 0, 0)
        atom = lambda name: x.XInternAtom(dpy, name.encode(), 0)
        name = lambda a: x.XGetAtomName(dpy, a).decode() if a else None
        def read(prop):
            t, f, n, after, data = L(), I(), L(), L(), P()
            x.XGetWindowProperty(dpy, win, prop, 0, 1 << 20, 0, 0, ctypes.byref(t), ctypes.byref(f),
                ctypes.byref(n), ctypes.byref(after), ctypes.byref(data))
            if not t.value:
                return None
            if f.value == 32:
                items = list(ctypes.cast(data, ctypes.POINTER(L))[:n.value])
                if name(t.value) in ('ATOM', 'ATOM_PAIR'):
                    return {'type': name(t.value), 'atoms': [name(a) for a in items]}
                return {'type': name(t.value), 'values': items}
            return {'type': name(t.value), 'hex': ctypes.string_at(data, n.value).hex()}
        def convert(target, prop, time=0):
            x.XConvertSelection(dpy, atom('CLIPBOARD'), atom(target), prop, win, time)
            event = (ctypes.c_long * 24)()
            while True:
                x.XNextEvent(dpy, event)
                if event[0] & 0xffffffff == 31:  # SelectionNotify
                    return event[7]  # its property
        mode = sys.argv[1]
        if mode == 'multiple':
            pairs = ['UTF8_STRING', 'P1', 'image/png', 'P2', 'STRING', 'P3', 'MULTIPLE', 'P4', 'TIMESTAMP', 'P5']
            values = (L * len(pairs))(*[atom(p) for p in pairs])
            x.XChangeProperty(dpy, win, atom('PARAMS'), atom('ATOM_PAIR'), 32, 0, values, len(pairs))
            got = convert('MULTIPLE', atom('PARAMS'))
            result = {'property': name(got), 'params': read(atom('PARAMS'))}
            result.update({p: read(atom(p)) for p in ['P1', 'P2', 'P3', 'P5']})
        elif mode == 'multiple-without-property':
            result = {'property': name(convert('MULTIPLE', 0))}
        elif mode == 'obsolete':
            got = convert('UTF8_STRING', 0)
            result = {'property': name(got), 'value': read(got) if got else None}
        elif mode == 'old-time':
            result = {'property': name(convert('UTF8_STRING', atom('P1'), time=1))}
        print(json.dumps(result))
        """#

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
