// SPDX-License-Identifier: MIT
import Glibc
import TestSupport

extension CLIFixture {
    /// Writes `bytes` at `name` below the fixture's data folder, making the folders on the
    /// way, and answers the file's path: the sources the import tests hand to `cliptab`.
    @discardableResult
    func writeDataFile(_ name: String, bytes: [UInt8]) -> String {
        var path = data.path
        for folder in name.split(separator: "/").dropLast() {
            path += "/" + folder
            mkdir(path, 0o700)
        }
        path = data.appending(name)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(descriptor >= 0, "cannot create \(path)")
        bytes.withUnsafeBytes { precondition(Glibc.write(descriptor, $0.baseAddress, $0.count) == $0.count) }
        close(descriptor)
        return path
    }

    /// Reads the table file `cliptab export TABLE --format yaml` writes.
    func yaml(_ table: String) throws -> String {
        try run("export", table, "--format", "yaml").out
    }
}
