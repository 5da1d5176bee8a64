// SPDX-License-Identifier: MIT
import CliptabCore
import DBus

extension CliptabInterface {
    /// The keys of `[keys]` (API version 4): what became of each binding.
    static var keyMethods: [CliptabMethod] {
        [
            .immediate(
                "KeyBindings", [arg("options", "a{sv}")], [arg("bindings", "a(ssssss)")]
            ) { service, a in
                let options = try CallOptions(a.values[0], known: [("compositor", "s")])
                let compositor = options.string("compositor")
                if let compositor, !CompositorLines.compositors.contains(compositor) {
                    throw CliptabError(
                        .invalidArgument,
                        "unknown compositor \"\(compositor.prefix(64))\"; the compositors are "
                            + CompositorLines.compositors.joined(separator: ", "))
                }
                let bindings = service.keys.entries.map { entry in
                    let line = compositor.flatMap { CompositorLines.line(for: entry.binding, compositor: $0) }
                    return BusValue.structure([
                        .string(entry.binding.keys), .string(entry.binding.action.text),
                        .string(entry.binding.id),
                        .string(entry.state.word), .string(entry.state.detail), .string(line ?? ""),
                    ])
                }
                return [.array(elementSignature: "(ssssss)", bindings)]
            }
        ]
    }
}
