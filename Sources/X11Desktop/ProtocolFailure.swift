// SPDX-License-Identifier: MIT
import CX11

/// X protocol errors that a checked batch of requests caused.
struct ProtocolFailure: Error, CustomStringConvertible {
    /// The errors, in the order the server reported them.
    let records: [ProtocolErrorRecord]

    /// True when one of the errors names a window that does not exist (any more).
    var isBadWindow: Bool { records.contains { $0.errorCode == UInt8(BadWindow) } }

    /// "X error 3 (request 18, resource 0x…)", one per error.
    var description: String {
        records.map { record in
            "X error \(record.errorCode) (request \(record.requestCode),"
                + " resource 0x\(String(record.resource, radix: 16)))"
        }.joined(separator: "; ")
    }
}
