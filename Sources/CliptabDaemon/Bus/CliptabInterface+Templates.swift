// SPDX-License-Identifier: MIT
import CliptabCore
import DBus

extension CliptabInterface {
    /// The methods of templates tables (API version 3): the flag, the expansion shown, the
    /// copy of the stored text, and copy and paste with the values of `{input:…}`; and
    /// (version 4) the context-menu action with them, saying whether its text is secret.
    static var templateMethods: [CliptabMethod] {
        [
            .immediate("SetTemplates", [arg("table", "s"), arg("on", "b")], []) { service, a in
                try service.tables.setTemplates(a.string("table"), a.bool("on"))
                return []
            },
            .immediate("GetTemplates", [arg("table", "s")], [arg("on", "b")]) { service, a in
                [.boolean(try service.tables.record(of: a.string("table")).isTemplates)]
            },
            .deferred(
                "Expand", [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("inputs", "a{ss}")],
                [arg("text", "s")]
            ) { service, a, done in
                try service.expandCell(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"),
                    inputs: a.stringDictionary("inputs"),
                    completion: done)
            },
            .immediate(
                "GetTemplateInputs", [arg("table", "s"), arg("section", "i"), arg("row", "i")],
                [arg("inputs", "a(sbs)")]
            ) { service, a in
                let inputs = try service.templateInputs(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"))
                return [
                    .array(
                        elementSignature: "(sbs)",
                        inputs.map {
                            .structure([
                                .string($0.label), .boolean($0.defaultValue != nil),
                                .string($0.defaultValue ?? ""),
                            ])
                        })
                ]
            },
            .deferredUse(
                "CopyRaw", [arg("table", "s"), arg("section", "i"), arg("row", "i")], [arg("text", "s")]
            ) { service, a, done in
                try service.copy(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"), raw: true,
                    completion: done)
            },
            .deferredUse(
                "CopyWithInputs",
                [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("inputs", "a{ss}")],
                [arg("text", "s")]
            ) { service, a, done in
                try service.copy(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"),
                    inputs: a.stringDictionary("inputs"),
                    completion: done)
            },
            // Answers no text: a 10 MiB row sent back cost a copy several times what the
            // clipboard itself costs (libdbus checks and copies it, the caller reads it).
            .deferredByteCount(
                "CopyQuiet",
                [
                    arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("inputs", "a{ss}"),
                    arg("raw", "b"),
                ],
                [arg("bytes", "t")]
            ) { service, a, done in
                let inputs = try a.stringDictionary("inputs")
                let raw = try a.bool("raw")
                if raw && !inputs.isEmpty {
                    throw CliptabError(
                        .invalidArgument, "a raw copy takes the stored text: it takes no inputs")
                }
                try service.copy(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"), inputs: inputs,
                    raw: raw, completion: done)
            },
            .deferredPaste(
                "PasteWithInputs",
                [
                    arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("timeout_ms", "u"),
                    arg("window", "t"), arg("inputs", "a{ss}"),
                ],
                [arg("delivered", "b"), arg("reason", "s")]
            ) { service, a, done in
                let window = try a.uint64("window")
                try service.pasteToFocus(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"),
                    timeoutMilliseconds: a.uint32("timeout_ms"),
                    caller: a.sender, window: window == 0 ? nil : window,
                    inputs: a.stringDictionary("inputs"),
                    completion: done)
            },
            // API version 4: whether the text used is secret, so a client can leave it unshown.
            .deferredUse(
                "PerformActionWithInputs",
                [
                    arg("table", "s"), arg("action", "s"), arg("section", "i"), arg("row", "i"),
                    arg("inputs", "a{ss}"),
                ],
                [arg("text", "s"), arg("secret", "b")]
            ) { service, a, done in
                try service.perform(
                    a.string("table"), action: a.string("action"), section: a.int32("section"),
                    row: a.int32("row"), inputs: a.stringDictionary("inputs"), completion: done)
            },
        ]
    }
}
