// SPDX-License-Identifier: MIT

/// A GLib (Gio) client that makes method calls carrying Unix file descriptors, which the
/// project's own D-Bus library never sends: `/usr/bin/python3 -c script` with `arguments`.
///
/// It keeps `window` calls in flight, sends the next as each reply comes, and prints one
/// line at the end: `done: N refused (NotSupported)` when every call was refused with
/// `org.freedesktop.DBus.Error.NotSupported`, else `failed: ` and what the calls got.
public enum DescriptorFlood {
    /// The python interpreter with GObject introspection (python3-gi).
    public static let python = "/usr/bin/python3"

    /// The arguments after `python3`: `calls` calls of `member` with `body` (GVariant text,
    /// a tuple), each carrying `perCall` descriptors of the file at `descriptorPath`.
    public static func arguments(
        address: String, destination: String, path: String, interface: String, member: String,
        body: String, calls: Int, perCall: Int, window: Int, descriptorPath: String = "/dev/null"
    ) -> [String] {
        [
            "-c", script, address, destination, path, interface, member, body, "\(calls)", "\(perCall)",
            "\(window)", descriptorPath,
        ]
    }

    /// The client's source.
    static let script = HelperPrograms.source("descriptor_flood.py")
}
