// SPDX-License-Identifier: MIT
import Glibc

/// Bytes in memory of their own, zeroed when the last reference goes in a way the compiler
/// may not remove (`explicit_bzero`), so that a copied password does not linger in freed
/// memory.
///
/// A class rather than an `[UInt8]`: an array shares storage on copy, so zeroing "our" array
/// could zero a fresh copy and leave the shared original intact. INCR transfers keep a
/// reference, which keeps the bytes alive (and unwiped) until the last transfer ends.
final class WipingBuffer {
    /// The allocation: at least one byte, so that an empty text still has an address.
    private let storage: UnsafeMutableRawBufferPointer
    /// The number of bytes.
    let count: Int

    private init(storage: UnsafeMutableRawBufferPointer, count: Int) {
        self.storage = storage
        self.count = count
    }

    /// Copies `bytes` into a new buffer.
    static func copying(_ bytes: some Collection<UInt8>) -> WipingBuffer {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        storage.copyBytes(from: bytes)
        return WipingBuffer(storage: storage, count: bytes.count)
    }

    /// Copies the UTF-8 bytes of `text` into a new buffer, in one pass over contiguous memory.
    static func copying(utf8Of text: String) -> WipingBuffer {
        var text = text
        // A no-op for native strings, the only kind on Linux.
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { copying($0) } ?? copying(Array(text.utf8))
    }

    /// Moves `bytes` into a new buffer: copies them, then zeroes and empties the array (used
    /// for converted forms of a possibly secret text).
    static func taking(_ bytes: inout [UInt8]) -> WipingBuffer {
        let buffer = copying(bytes)
        wipe(&bytes)
        return buffer
    }

    /// Zeroes `bytes` in place (in a way the compiler may not remove) and empties the array.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { explicit_bzero(base, raw.count) }
        }
        bytes = []
    }

    /// Calls `body` with the bytes, valid only during the call.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
    }

    /// A fresh array holding a copy of the bytes (never sharing this buffer's memory).
    var copiedBytes: [UInt8] {
        withBytes { [UInt8]($0) }
    }

    deinit {
        explicit_bzero(storage.baseAddress!, storage.count)
        storage.deallocate()
    }
}
