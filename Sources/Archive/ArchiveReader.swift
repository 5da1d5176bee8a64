// SPDX-License-Identifier: MIT
import CArchive
import Glibc

/// An error of reading an archive: what is wrong, and the entry where known.
public struct ArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// A zip archive read from memory with libarchive, entry by entry, under a bound on the
/// bytes it unpacks in all; the only owner of its `struct archive *`.
public final class ArchiveReader {
    private let handle: OpaquePointer
    private let input: UnsafeMutableBufferPointer<UInt8>

    /// A reader of the zip archive `bytes`.
    ///
    /// The corresponding C functions are `archive_read_new`, `archive_read_support_format_zip`
    /// and `archive_read_open_memory`.
    public init(zip bytes: [UInt8]) throws {
        guard let handle = archive_read_new() else {
            throw ArchiveError("libarchive could not start (out of memory)")
        }
        self.handle = handle
        input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
        _ = input.initialize(from: bytes)
        archive_read_support_format_zip(handle)
        guard archive_read_open_memory(handle, input.baseAddress, bytes.count) == ARCHIVE_OK else {
            throw ArchiveError("not a zip archive: \(message)")
        }
    }

    deinit {
        archive_read_free(handle)
        input.deallocate()
    }

    private var message: String {
        archive_error_string(handle).map { String(cString: $0) } ?? "unreadable"
    }

    /// Every entry: its path as stored, whether it is a regular file, and its bytes (empty
    /// for others); `ArchiveError` past `maxBytes` unpacked in all or at a damaged entry.
    public func entries(maxBytes: Int) throws -> [(path: String, isFile: Bool, bytes: [UInt8])] {
        var found: [(path: String, isFile: Bool, bytes: [UInt8])] = []
        var total = 0
        var entry: OpaquePointer?
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let status = archive_read_next_header(handle, &entry)
            if status == ARCHIVE_EOF { return found }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw ArchiveError("a damaged entry: \(message)")
            }
            let path = archive_entry_pathname_utf8(entry).map { String(cString: $0) } ?? ""
            let isFile = archive_entry_filetype(entry) & S_IFMT == S_IFREG
            var bytes: [UInt8] = []
            while isFile {
                let count = chunk.withUnsafeMutableBytes {
                    archive_read_data(handle, $0.baseAddress, min($0.count, maxBytes - total + 1))
                }
                guard count >= 0 else { throw ArchiveError("\(path): \(message)") }
                if count == 0 { break }
                total += count
                guard total <= maxBytes else {
                    throw ArchiveError("it unpacks to more than \(maxBytes >> 20) MiB")
                }
                bytes += chunk[0..<count]
            }
            found.append((path, isFile, bytes))
        }
    }
}
