// SPDX-License-Identifier: MIT

/// The most array and dictionary elements, counted over all its arguments, that a method
/// call to a connection's objects may carry, and the error that refuses a call with more.
///
/// A call over it is refused before its values are decoded: decoding makes one value per
/// element, so a single 64 MiB array of integers would otherwise cost the receiver gigabytes
/// and seconds.
public struct BusElementLimit {
    /// The most elements of one call.
    public let maximum: Int
    /// The error that refuses a call over `maximum`; it is given the limit.
    public let error: (Int) -> any Error

    /// Makes a limit of `maximum` elements refused with `error`.
    public init(maximum: Int, error: @escaping (Int) -> any Error) {
        self.maximum = maximum
        self.error = error
    }

    /// No limit.
    public static var unlimited: BusElementLimit {
        BusElementLimit(maximum: Int.max) { limit in
            BusError.limitsExceeded("the call carries more than \(limit) array elements in all; send fewer")
        }
    }
}
