// SPDX-License-Identifier: MIT
import CliptabCore
import DBus

extension CliptabInterface {
    /// The fill of the focused window (API version 4): a section's rows pasted one by one,
    /// with Tab, Return or nothing between them.
    static var fillMethods: [CliptabMethod] {
        [
            .deferredFill(
                "FillToFocus",
                [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("options", "a{sv}")],
                [arg("filled", "u"), arg("reason", "s")]
            ) { service, a, done in
                let options = try CallOptions(
                    a.values[3], known: [("count", "t"), ("then", "s"), ("timeout_ms", "t")])
                let then = options.string("then") ?? ClipboardService.FillSeparator.tab.rawValue
                guard let separator = ClipboardService.FillSeparator(rawValue: then) else {
                    throw CliptabError(
                        .invalidArgument,
                        "then is \"\(then.prefix(64))\"; it is one of "
                            + ClipboardService.FillSeparator.allCases.map(\.rawValue).joined(separator: ", "))
                }
                try service.fill(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"),
                    count: options.uint64("count"), then: separator,
                    timeoutMilliseconds: options.uint64("timeout_ms"),
                    caller: a.sender, completion: done)
            }
        ]
    }
}
