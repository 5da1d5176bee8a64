// SPDX-License-Identifier: MIT
// cliptab's benchmark: each figure is printed beside a baseline measured in the same run,
// with the ratio and the goal, because this machine is too noisy for absolute numbers.
import Glibc
import Posix

SignalMask.ignoreBrokenPipe()
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count == 2 && arguments[0] == "--probe-open" {
    do {
        try StoreBenchmark.probeOpen(directory: arguments[1])
        exit(0)
    } catch {
        print("cliptab-bench: open probe failed: \(error)")
        exit(1)
    }
}
let suites: [String: () throws -> Void] = [
    "budget": BudgetBenchmark.run,
    "bus": BusBenchmark.run,
    "cli": CLIBenchmark.run,
    "hostile": HostileBenchmark.run,
    "load": LoadBenchmark.run,
    "clipboard": ClipboardBenchmark.run,
    "fill": FillBenchmark.run,
    "wayland": WaylandClipboardBenchmark.run,
    "menu": MenuBenchmark.run,
    "paste": PasteBenchmark.run,
    "keys": KeysBenchmark.run,
    "paste-wayland": WaylandPasteBenchmark.run,
    "menu-wayland": WaylandMenuBenchmark.run,
    "pick-wayland": WaylandPickBenchmark.run,
    "search": SearchBenchmark.run,
    "soak": SoakBenchmark.run,
    "store": StoreBenchmark.run,
    "table-file": TableFileBenchmark.run,
    "linked": LinkedBenchmark.run,
    "template": TemplateBenchmark.run,
]
let chosen = arguments.isEmpty ? ["store"] : arguments
for name in chosen {
    guard let suite = suites[name] else {
        print(
            "cliptab-bench: unknown suite \"\(name)\" (valid: \(suites.keys.sorted().joined(separator: ", ")))"
        )
        exit(2)
    }
    do {
        try suite()
    } catch {
        print("cliptab-bench: \(name) failed: \(error)")
        exit(1)
    }
}
