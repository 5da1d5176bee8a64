// SPDX-License-Identifier: MIT
import CPosix

/// The process's heap.
public enum Memory {
    /// Gives the heap's free pages back to the system; true when some were given back.
    ///
    /// glibc keeps memory freed in the middle of the heap (and in the other threads' arenas)
    /// resident: after one large message has been decoded into many small allocations, the
    /// process would otherwise stay that large. The corresponding C function is `malloc_trim`.
    @discardableResult
    public static func trim() -> Bool {
        CPosix_malloc_trim() == 1
    }
}
