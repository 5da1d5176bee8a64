// SPDX-License-Identifier: MIT

/// Issue 23's figure: `cliptab menu` on 1,000 rows on a headless sway (the layer-shell
/// popup), from the start to its first painted frame, beside `fuzzel --dmenu` fed the same
/// lines by `cat`, interleaved in one run.
///
/// Both frames are seen the same way, in the client's own protocol log (`WAYLAND_DEBUG=1`):
/// the first `wl_surface.commit` after a buffer was attached (`WaylandPickBenchmark.firstFrame`).
enum WaylandMenuBenchmark {
    static func run() throws {
        try WaylandPickBenchmark.compareFirstFrames(
            of: ("cliptab menu t", { cliptab, _ in "exec \(cliptab) menu t" }),
            heading: "menu on Wayland (headless sway; start to the first frame",
            ratio: "cliptab menu / fuzzel", goal: 1.0)
    }
}
