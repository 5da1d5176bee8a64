// SPDX-License-Identifier: MIT

/// One X protocol error as the error handler saw it.
struct ProtocolErrorRecord: Equatable, Sendable {
    /// The address of the connection the failed request was sent on (only compared).
    let display: Int
    /// The serial number of the failed request.
    let serial: UInt
    /// The error code, such as `BadWindow` (3).
    let errorCode: UInt8
    /// The major opcode of the failed request, such as `X_ChangeProperty` (18).
    let requestCode: UInt8
    /// The resource the request named (window, atom, …).
    let resource: UInt
}
