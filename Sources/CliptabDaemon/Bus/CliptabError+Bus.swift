// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import DBus

// The one place where domain errors get their D-Bus names.
extension CliptabError: BusErrorConvertible {
    /// `io.github.cliptab.Cliptab1.Error.` + the error's kind.
    public var busErrorName: String { CliptabBus.errorPrefix + code.rawValue }
    /// The error's message.
    public var busErrorMessage: String { message }
}
