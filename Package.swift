// swift-tools-version:6.0
// The target list is the architecture: C shims at the bottom, each imported by exactly one
// wrapper module; a pure model core; the store, the bus and the clipboard as separate
// modules; the daemon library that wires them; executables that only start things.
import Foundation
import PackageDescription

/// libdbus's header directories (`pkg-config --cflags-only-I dbus-1`), for DBus.
///
/// DBus is the one module that imports CDBus. CDBus does not name the pkg-config package
/// itself: SwiftPM would then put `-L<libdir> -ldbus-1` first on every link line, before
/// anything a target can add, and the shared libdbus would be linked instead of the
/// archive that CDBus/module.modulemap names.
let dbusIncludeFlags: [String] = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config", "--cflags-only-I", "dbus-1"]
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return [] }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init).filter {
        $0.hasPrefix("-I")
    }
}()

/// Generic type metadata laid down by the compiler, for the executables that start on a key press.
///
/// The metadata of the generic types they use in their own module is then in the binary at
/// start, rather than instantiated by the runtime by mangled name on first use (see the cli
/// benchmark). In every configuration, so that the tests run what ships.
let prespecializedMetadata: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-prespecialize-generic-metadata"])
]

/// How the executables that start on a key press are linked in release builds.
///
/// The Swift runtime and the C++ library it needs statically (StaticLink/ holds a linker script that
/// makes -lstdc++ take the static archive), libgcc statically too (one library less to
/// find, map and relocate), and not position-independent, as swiftc -static-executable
/// makes it, so that the loader has no relocations to apply to the runtime's metadata; the
/// libraries, stack and heap are still placed at random.
let keyPressLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-static-stdlib", "-L", Context.packageDirectory + "/Sources/cliptab/StaticLink",
            "-Xclang-linker", "-no-pie", "-Xclang-linker", "-static-libgcc",
        ],
        .when(configuration: .release))
]

/// How `cliptab` is linked in release builds: as `keyPressLinking`, and with the C library
/// too, into one static executable.
///
/// A static program has no dynamic loader to run: no libraries to find, map and relocate, no
/// symbols bound on first call. An empty Swift program, spawned and reaped, took about
/// 0.58 ms linked so against 0.88 ms with only the Swift runtime static (a C one: 0.57 ms).
/// The CLI needs nothing glibc loads at run time: no user database (NSS), no locale, no
/// iconv (only libdbus's fallback for TCP buses would). The popups stay dynamic: Xlib,
/// pango and their fonts do load modules at run time.
let cliLinking: [LinkerSetting] = [
    .unsafeFlags(
        ["-static-executable"],
        .when(configuration: .release))
]

let package = Package(
    name: "cliptab",
    products: [
        .executable(name: "cliptabd", targets: ["cliptabd"]),
        .executable(name: "cliptab", targets: ["cliptab"]),
        .executable(name: "cliptab-menu", targets: ["cliptab-menu"]),
        .executable(name: "cliptab-menu-wayland", targets: ["cliptab-menu-wayland"]),
        .executable(name: "cliptab-bench", targets: ["cliptab-bench"]),
    ],
    targets: [
        // C libraries of the system, through pkg-config.
        // libdbus from its static archive (libdbus-1-dev): the shared library loads libsystemd
        // and six more libraries at every start, a millisecond of each `cliptab` call.
        // CDBusStatic answers the archive's two questions to libsystemd.
        .systemLibrary(name: "CDBus"),
        .target(name: "CDBusStatic"),
        // Xlib, with XKB and the XTEST client library (the paste keystroke): linked by the
        // module map, as libXtst's pkg-config file adds nothing libX11's does not.
        .systemLibrary(name: "CX11", pkgConfig: "x11", providers: [.apt(["libx11-dev", "libxtst-dev"])]),
        // The popup's drawing: Xft and fontconfig, Xinerama (and Xlib through them).
        .systemLibrary(
            name: "CXft", pkgConfig: "xft", providers: [.apt(["libxft-dev", "libxinerama-dev"])]),
        .systemLibrary(name: "CSQLite3", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libyaml, for the table file (parser and emitter).
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // libarchive, for Alfred's zipped snippet collections.
        .systemLibrary(name: "CArchive", providers: [.apt(["libarchive-dev"])]),
        // GNU/Linux calls that Swift's Glibc module does not export.
        .target(name: "CPosix"),
        // libwayland-client with the glue of the data-control, virtual-keyboard and
        // foreign-toplevel protocols (wayland-scanner's output, committed: protocols/regenerate
        // remakes it), the requests marshalled in C, and the paste keyboard's keymap compiled
        // by libxkbcommon.
        .target(
            name: "CWayland", exclude: ["protocols"],
            linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("xkbcommon")]),
        // The Wayland popup's C side: libwayland-client and libxkbcommon's headers, and the
        // layer-shell protocol's glue (committed, protocols/regenerate remakes it); the client
        // itself is Swift, in PopupWayland.
        .target(
            name: "CWaylandPopup", exclude: ["protocols"],
            linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("xkbcommon")]),
        // libxkbcommon's keysym names, for the paste chords.
        .systemLibrary(
            name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
        // fontconfig's font list, for the characters the installed fonts have.
        .systemLibrary(
            name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        // The popups' text: pango (shaping, fallback per character, right to left) over cairo.
        .systemLibrary(
            name: "CPangoCairo", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),

        // Wrappers: the only importers of their C module.
        .target(name: "Posix", dependencies: ["CPosix"]),
        .target(
            name: "DBus", dependencies: ["CDBus", "CDBusStatic", "Posix"],
            swiftSettings: [.unsafeFlags(dbusIncludeFlags.flatMap { ["-Xcc", $0] })]),
        // Key chords (`ctrl+v`) by X keysym name: what the configuration, the policy and every
        // injector share without linking a display's library.
        .target(name: "KeyChords", dependencies: ["CXKBCommon"]),
        // What the daemon does with an X server (selections, XTEST keys, the focused window,
        // key grabs) and with a Wayland compositor (data-control selections, the virtual
        // keyboard, the focused window's app id): named for the desktop, not one protocol.
        .target(name: "X11Desktop", dependencies: ["CX11", "KeyChords", "Posix"]),
        .target(name: "WaylandDesktop", dependencies: ["CWayland", "Posix"]),
        .target(name: "InstalledFonts", dependencies: ["CFontconfig"]),
        .target(name: "PopupWindow", dependencies: ["CXft", "InstalledFonts", "MenuModel", "Posix"]),
        .target(name: "PopupWayland", dependencies: ["CWaylandPopup", "MenuModel", "PopupText", "Posix"]),
        .target(name: "PopupText", dependencies: ["CPangoCairo", "InstalledFonts", "MenuModel"]),
        // YAML read into a tree of string scalars with places, and written back exactly.
        .target(name: "YAMLDocument", dependencies: ["CYAML"]),
        // Zip archives read from memory under a bound on what they unpack.
        .target(name: "Archive", dependencies: ["CArchive"]),

        // The contract's names (bus name, path, interface, error prefix, words): no code.
        .target(name: "CliptabContract"),
        // The calling side of the contract: calls with one deadline, typed replies, the
        // daemon-gone watcher and the decoder of the change signals; no model, no Foundation.
        .target(name: "CliptabClient", dependencies: ["CliptabContract", "DBus"]),
        // POSIX extended regular expressions matched in linear time under a step budget.
        .target(name: "PosixRegex"),
        // Short quotations of a caller's or a file's text in error messages: one rule for
        // the model's errors and the config file's problems.
        .target(name: "Quoting"),
        // The model: no C, no I/O.
        .target(name: "CliptabCore", dependencies: ["CliptabContract", "PosixRegex", "Quoting"]),
        // cliptab.conf: the one INI reader, the file's place and its bounded read; used by
        // cliptabd, cliptab and cliptab-menu alike. Nothing but the system library and Quoting.
        .target(name: "CliptabConfig", dependencies: ["Quoting"]),
        // The popup menu's model: levels, filter, cursor and scrolling, the [menu] settings;
        // no C, no I/O.
        .target(name: "MenuModel", dependencies: ["CliptabConfig", "CliptabContract"]),
        // The table file: the model's table documents as YAML (the schema and its errors).
        .target(name: "TableFile", dependencies: ["CliptabContract", "CliptabCore", "YAMLDocument"]),
        // Peers' snippets (espanso, Alfred, Raycast, folders of files) read from disk, bounded,
        // as table documents.
        .target(
            name: "SnippetImport",
            dependencies: ["Archive", "CliptabContract", "CliptabCore", "YAMLDocument"]),
        // Durable storage of the model in SQLite.
        .target(name: "CliptabStore", dependencies: ["CliptabCore", "CSQLite3"]),
        // The daemon as a library: service, bus adapter, clipboard port, config, event loop.
        .target(
            name: "CliptabDaemon",
            dependencies: [
                "CliptabConfig", "CliptabContract", "CliptabCore", "CliptabStore", "DBus", "KeyChords",
                "X11Desktop", "WaylandDesktop", "Posix", "SnippetImport", "TableFile",
            ],
            // The interface XML is checked against the live daemon by a test, not compiled.
            exclude: ["Bus/io.github.cliptab.Cliptab1.xml"]
        ),

        // Released, the daemon carries the Swift runtime code it uses instead of mapping the
        // whole shared runtime: some 3 MiB less resident for a process that always runs, and
        // no toolchain needed where it is installed. (Debug builds stay dynamic: the test
        // bundle links the executable's module and needs the shared runtime.)
        .executableTarget(
            name: "cliptabd", dependencies: ["CliptabContract", "CliptabDaemon"],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]),
        // The CLI links libdbus only (from its archive, as every program here): no X11, no
        // SQLite, no Foundation, not even the model.
        // Release builds are made for a process that lives for one call (see the cli
        // benchmark and `keyPressLinking`).
        // The command line's grammar, help and completion, and each command's run: a library,
        // so that tests call the parser in process; the executable only runs it.
        .target(
            name: "CliptabCommandLine",
            dependencies: ["CliptabClient", "CliptabConfig", "CliptabContract", "DBus", "Posix"],
            swiftSettings: prespecializedMetadata),
        .executableTarget(
            name: "cliptab",
            dependencies: ["CliptabCommandLine"],
            exclude: ["StaticLink"],
            swiftSettings: prespecializedMetadata,
            linkerSettings: cliLinking
        ),
        // What both popups share: their command line, the daemon's rows and calls, and the
        // requests of the menu's levels carried out (`MenuFrontEnd`); no drawing.
        .target(
            name: "MenuDriver",
            dependencies: [
                "CliptabClient", "CliptabConfig", "CliptabContract", "DBus", "MenuModel", "Posix",
            ],
            swiftSettings: prespecializedMetadata),
        // The popups that `cliptab menu` runs, one per kind of session (`MenuProgram`), each
        // linking only its desktop's libraries: the X11 one Xlib and Xft, the Wayland one
        // libwayland, xkbcommon, pango and cairo. Released like cliptab (`keyPressLinking`),
        // since they too start on a key press and every millisecond before the first frame
        // shows.
        .executableTarget(
            name: "cliptab-menu",
            dependencies: [
                "CliptabClient", "CliptabContract", "MenuDriver", "MenuModel", "Posix", "PopupWindow",
            ],
            swiftSettings: prespecializedMetadata,
            linkerSettings: keyPressLinking),
        .executableTarget(
            name: "cliptab-menu-wayland",
            dependencies: [
                "CliptabClient", "CliptabContract", "DBus", "MenuDriver", "MenuModel", "Posix", "PopupText",
                "PopupWayland",
            ],
            swiftSettings: prespecializedMetadata,
            linkerSettings: keyPressLinking),
        .executableTarget(
            name: "cliptab-bench",
            dependencies: [
                "CliptabClient", "CliptabContract", "CliptabCore", "CliptabStore", "DBus",
                "DaemonTestSupport", "Posix", "PopupWindow", "TestSupport", "WaylandDesktop",
            ]),

        // Test helpers: private dbus-daemon, Xvfb and headless sway, built binaries, temporary directories,
        // the seeded random of every randomized test. No D-Bus and no model, so that the
        // wrapper modules' tests link only what they test.
        // Its helper programs (`Programs`) are read from the checkout by path (`HelperPrograms`).
        .target(
            name: "TestSupport", dependencies: ["CTestPointer", "Posix"], path: "Sources/TestSupport",
            exclude: ["Programs"]),
        // A virtual pointer for the headless compositor's seat (which has none), for the
        // popup's mouse tests: libwayland-client and the two interfaces it needs.
        .target(name: "CTestPointer", linkerSettings: [.linkedLibrary("wayland-client")]),
        // The randomized model of the table service (reference, generator, runner, event
        // replica), shared by the core's tests (in memory) and the store's (over SQLite).
        .target(name: "ModelTestSupport", dependencies: ["CliptabCore", "TestSupport"]),
        // One fixture for a built cliptabd on a private bus (and Xvfb), the calls of the
        // contract and snapshots of its tables, for the tests and the benchmark that run one.
        .target(
            name: "DaemonTestSupport",
            dependencies: ["CliptabClient", "CliptabContract", "DBus", "Posix", "TestSupport"]),

        .testTarget(
            name: "CliptabCoreTests",
            dependencies: [
                "CliptabContract", "CliptabCore", "ModelTestSupport", "PosixRegex", "Quoting", "TestSupport",
            ]),
        .testTarget(
            name: "CliptabStoreTests",
            dependencies: ["CliptabStore", "CliptabCore", "ModelTestSupport", "TestSupport"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(
            name: "TableFileTests",
            dependencies: ["CliptabCore", "TableFile", "TestSupport", "YAMLDocument"]),
        .testTarget(name: "X11DesktopTests", dependencies: ["X11Desktop", "TestSupport"]),
        .testTarget(
            name: "WaylandDesktopTests", dependencies: ["Posix", "TestSupport", "WaylandDesktop"]),
        .testTarget(
            name: "CliptabDaemonTests",
            dependencies: [
                "CliptabClient", "CliptabConfig", "CliptabContract", "CliptabDaemon", "DaemonTestSupport",
                "KeyChords", "TestSupport", "cliptabd", "cliptab", "MenuModel", "WaylandDesktop",
            ]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "CliptabClient", "CliptabCommandLine", "CliptabContract", "DBus", "CliptabCore",
                "DaemonTestSupport", "TestSupport", "cliptabd", "cliptab", "cliptab-menu",
                "cliptab-menu-wayland",
            ]
        ),
        .testTarget(name: "MenuModelTests", dependencies: ["MenuModel"]),
        .testTarget(name: "SnippetImportTests", dependencies: ["CliptabCore", "SnippetImport"]),
        .testTarget(name: "KeyChordsTests", dependencies: ["KeyChords"]),
        .testTarget(name: "PopupWindowTests", dependencies: ["MenuModel", "PopupWindow", "TestSupport"]),
        .testTarget(name: "PopupTextTests", dependencies: ["MenuModel", "PopupText", "TestSupport"]),
        .testTarget(name: "PopupWaylandTests", dependencies: ["PopupWayland", "Posix", "TestSupport"]),
        .testTarget(
            name: "MenuTests",
            dependencies: [
                "CliptabClient", "CliptabContract", "DBus", "DaemonTestSupport", "MenuDriver", "MenuModel",
                "Posix",
                "TestSupport", "cliptabd", "cliptab", "cliptab-menu", "cliptab-menu-wayland",
            ]),
        .testTarget(
            name: "FaultTests",
            dependencies: [
                "CliptabClient", "CliptabContract", "DBus", "CliptabCore", "DaemonTestSupport", "TestSupport",
                "cliptabd",
            ]),
    ]
)
