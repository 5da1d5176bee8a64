// SPDX-License-Identifier: MIT
import CliptabCore
import DBus

/// The addresses of the cliptab API on the session bus.
public enum CliptabBus {
    /// The well-known bus name.
    public static let name = "io.github.cliptab.Cliptab1"
    /// The object path.
    public static let path = "/io/github/cliptab/Cliptab1"
    /// The interface name.
    public static let interface = "io.github.cliptab.Cliptab1"
    /// The prefix of every cliptab error name.
    public static let errorPrefix = "io.github.cliptab.Cliptab1.Error."
    /// The API version (`ApiVersion` property).
    public static let apiVersion: UInt32 = 1
}

// The one place where domain errors get their D-Bus names.
extension CliptabError: BusErrorConvertible {
    /// `io.github.cliptab.Cliptab1.Error.` + the error's kind.
    public var busErrorName: String { CliptabBus.errorPrefix + code.rawValue }
    /// The error's message.
    public var busErrorMessage: String { message }
}
