// SPDX-License-Identifier: MIT
import Posix

/// A client process started by a case's preparation and ended by its attack.
final class ClientBox {
    /// The client, while it runs.
    var client: ChildProcess?
}
