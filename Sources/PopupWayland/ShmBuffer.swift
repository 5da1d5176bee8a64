// SPDX-License-Identifier: MIT
import CWaylandPopup
import Glibc

/// A `wl_shm` buffer of ARGB8888 pixels (premultiplied): the memory, mapped here when this
/// side draws into it, and the compositor's `wl_buffer` over it.
///
/// Owns both: `deinit` destroys the buffer and unmaps the memory.
final class ShmBuffer {
    /// The compositor's buffer.
    let proxy: OpaquePointer
    /// The pixels (nil for a buffer never drawn here, such as the transparent overlay's).
    let pixels: UnsafeMutableRawPointer?
    /// Its size in device pixels, and in bytes.
    let width: Int, height: Int, bytes: Int
    /// Whether the compositor still reads it (until its release).
    var busy = false
    /// Whether it was never drawn: its pages are still all zeros.
    var fresh = true

    private init(proxy: OpaquePointer, pixels: UnsafeMutableRawPointer?, width: Int, height: Int) {
        self.proxy = proxy
        self.pixels = pixels
        self.width = width
        self.height = height
        bytes = width * height * 4
    }

    /// A buffer of `width` × `height` on `shm`; `mapped` when this side draws into it.
    static func make(shm: OpaquePointer, width: Int, height: Int, mapped: Bool) throws(LayerPopupError)
        -> ShmBuffer
    {
        let bytes = width * 4 * height
        let fd = CWaylandPopup_memfd("cliptab-menu")
        guard fd >= 0 else { throw LayerPopupError.errno("memfd_create") }
        defer { close(fd) }
        guard ftruncate(fd, off_t(bytes)) == 0 else {
            throw LayerPopupError.errno("cannot size a \(bytes)-byte buffer")
        }
        var pixels: UnsafeMutableRawPointer?
        if mapped {
            let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
            guard let address, address != MAP_FAILED else {
                throw LayerPopupError.errno("mmap of a \(bytes)-byte buffer")
            }
            pixels = address
        }
        // The pool is only the way to the buffer: the buffer keeps the memory.
        let pool = wl_shm_create_pool(shm, fd, Int32(clamping: bytes))
        let buffer = wl_shm_pool_create_buffer(
            pool, 0, Int32(width), Int32(height), Int32(width * 4), WL_SHM_FORMAT_ARGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        guard let buffer else {
            if let pixels { munmap(pixels, bytes) }
            throw LayerPopupError("the Wayland compositor made no buffer")
        }
        let made = ShmBuffer(proxy: buffer, pixels: pixels, width: width, height: height)
        wl_buffer_add_listener(buffer, PopupListeners.buffer, Unmanaged.passUnretained(made).toOpaque())
        return made
    }

    deinit {
        wl_buffer_destroy(proxy)
        if let pixels { munmap(pixels, bytes) }
    }
}
