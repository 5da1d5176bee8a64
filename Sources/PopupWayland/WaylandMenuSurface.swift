// SPDX-License-Identifier: MIT
import Glibc
import MenuModel
import PopupText

/// The menu's surface on a Wayland compositor with layer-shell: a box on an overlay that
/// holds the keyboard, at the pointer when the compositor says where that is (else centred),
/// drawn with pango and cairo.
public final class WaylandMenuSurface: MenuSurface {
    /// The compositor and the overlay.
    private let popup: LayerPopup
    /// The [menu] settings.
    private let settings: MenuSettings
    /// The font being readied, until the first frame takes it.
    private let preparedFont: TextFont.Preparation
    /// The box on the overlay (logical pixels) and where everything in it goes; nil until
    /// the next frame places it.
    private var placed: (box: (x: Int, y: Int, width: Int, height: Int), layout: MenuLayout)?
    private var firstCount = 1
    /// Where the pointer entered the overlay, once it has.
    private var pointerOrigin: (x: Int, y: Int)? {
        didSet { placed = nil }
    }
    /// The lines of rows the box shows.
    public private(set) var visibleRows = 1
    /// UTF-8 bytes the text renderer shaped, over every frame.
    private var shapedBytes = 0
    /// Frames drawn.
    private var frames = 0

    /// A surface on `popup`'s compositor with `settings`, drawn in `font`.
    public init(popup: LayerPopup, settings: MenuSettings, font: TextFont.Preparation) {
        self.popup = popup
        self.settings = settings
        preparedFont = font
    }

    /// Milliseconds until a held key repeats, nil when none is held.
    public var wakeTimeout: Int32? { popup.repeatTimeout }

    /// Shows the overlay; the box is placed at the first frame.
    public func open(firstCount: Int) throws {
        self.firstCount = firstCount
        try popup.show(namespace: "cliptab-menu")
    }

    /// Neither is needed for the first frame: the keymap and compose table.
    public func present() throws { popup.loadInput() }

    /// Places the box: at `pointer` (clamped to the overlay), else centred.
    private func place(_ font: TextFont.Measures, pointer: (x: Int, y: Int)?) -> (
        box: (x: Int, y: Int, width: Int, height: Int), layout: MenuLayout
    ) {
        let (width, height, _) = popup.size
        let layout = MenuLayout(
            settings: settings, textHeight: font.lineHeight, digitWidth: font.digitWidth, padding: 3,
            maximumWidth: width)
        visibleRows = layout.visibleRows(settings: settings, firstCount: firstCount, availableHeight: height)
        let boxWidth = layout.width
        let boxHeight = min(height, layout.height(visibleRows: visibleRows))
        var x = (width - boxWidth) / 2
        var y = (height - boxHeight) / 3
        if let pointer {
            // Open right and down from the pointer, or left and up where there is no room.
            x = pointer.x + boxWidth <= width ? pointer.x : max(0, pointer.x - boxWidth)
            y = pointer.y + boxHeight <= height ? pointer.y : max(0, pointer.y - boxHeight)
        }
        return ((x, y, boxWidth, boxHeight), layout)
    }

    /// Draws the shown level into a new frame: transparent everywhere but the menu's box,
    /// drawn there as the layout lays it out, with pango and cairo.
    public func draw(_ screen: MenuSession.Screen, prompt: String, message: String?) throws {
        let (box, layout) = try placed ?? place(preparedFont.measures(), pointer: pointerOrigin)
        placed = (box, layout)
        try popup.frame(width: box.width, height: box.height, x: box.x, y: box.y) {
            pixels, width, height, stride, fresh in
            // A new buffer's pages are the kernel's until first written (some hundred faults
            // for a box): written now, while the font's glyphs may still be rasterised on the
            // helper, rather than when the box is filled.
            if fresh { memset(pixels, 0, stride * height) }
            let font = try preparedFont.wait()
            let canvas = try TextCanvas(
                pixels: pixels, width: width, height: height, stride: stride, scale: popup.size.scale,
                font: font)
            if !fresh { canvas.clear() }
            for drawn in layout.drawings(
                screen, prompt: prompt, message: message, height: box.height, metrics: canvas)
            {
                switch drawn {
                case .fill(let x, let y, let width, let height, let ink):
                    canvas.fill(
                        x: x, y: y, width: width, height: height, color: TextColor(settings.color(of: ink)))
                case .text(let text, let x, let y, let ink):
                    // Already cut by the layout: drawn whole.
                    canvas.text(text, x: x, y: y, color: TextColor(settings.color(of: ink)))
                }
            }
            shapedBytes += canvas.shapedBytes
        }
        frames += 1
    }

    /// The window row at overlay point (`x`, `y`), or nil outside the box.
    private func row(x: Int, y: Int) -> Int? {
        guard let box = placed?.box, let layout = placed?.layout else { return nil }
        guard x >= box.x, x < box.x + box.width, y >= box.y, y < box.y + box.height else { return nil }
        return layout.windowRow(atY: y - box.y)
    }

    /// The next compositor event the menu acts on, its position as a row of the layout.
    public func nextEvent() -> MenuEvent? {
        while let event = popup.nextEvent() {
            switch event {
            case .redraw:
                placed = nil
                return .redraw
            case .closed:
                return .closed
            case .pointer(let x, let y):
                guard pointerOrigin != nil else {
                    // The compositor said where the pointer is: the box opens there, once.
                    pointerOrigin = (x, y)
                    return .redraw
                }
                return .pointer(row: row(x: x, y: y))
            case .button(let button, let x, let y):
                return .button(button, row: row(x: x, y: y))
            case .scroll(let step):
                return .scroll(step)
            case .key(let keysym, let text, let control):
                guard let key = WaylandKeys.key(keysym: keysym, text: text, control: control) else {
                    continue
                }
                return .key(key)
            }
        }
        return nil
    }

    /// The compositor's descriptor, its queue flushed.
    public func prepareToPoll() throws -> Int32 { try popup.prepareToPoll() }

    /// Reads what the compositor sent.
    public func finishPoll(readable: Bool) throws { try popup.finishPoll(readable: readable) }

    /// Removes the overlay, so the focused window has the keyboard again before the daemon
    /// pastes into it.
    public func hide() { try? popup.hide() }

    /// Shows the overlay again.
    public func reveal() throws {
        if !popup.isShown { try popup.show(namespace: "cliptab-menu") }
    }

    /// Removes the overlay and writes the statistics the tests ask for.
    public func close() {
        try? popup.hide()
        writeStatistics()
    }

    /// For the tests (work counted, not timed): when CLIPTAB_MENU_STATISTICS names a file,
    /// writes the frames drawn and the bytes shaped into it.
    private func writeStatistics() {
        guard let path = getenv("CLIPTAB_MENU_STATISTICS").map({ String(cString: $0) }), !path.isEmpty,
            let file = fopen(path, "w")
        else { return }
        fputs("frames \(frames)\nshaped_bytes \(shapedBytes)\n", file)
        fclose(file)
    }
}
