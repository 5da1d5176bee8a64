// SPDX-License-Identifier: MIT
import CliptabCore
import DBus

extension CliptabInterface {
    /// The methods of sequences (API version 4): rows offered one paste at a time.
    static var sequenceMethods: [CliptabMethod] {
        [
            .deferredReply(
                "StartSequence",
                [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("options", "a{sv}")],
                [arg("position", "u"), arg("count", "u")],
                encode: { (status: SequenceStatus) in
                    [.uint32(UInt32(status.position)), .uint32(UInt32(status.count))]
                }
            ) { service, a, done in
                let count = try CallOptions(a.values[3], known: [("count", "t")]).uint64("count")
                try service.startSequence(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"), count: count,
                    completion: done)
            },
            .immediate("StopSequence", [arg("options", "a{sv}")], [arg("stopped", "b")]) { service, a in
                _ = try CallOptions(a.values[0], known: [])
                return [.boolean(service.clipboard.stopSequence())]
            },
            .immediate(
                "GetSequence", [arg("options", "a{sv}")],
                [
                    arg("running", "b"), arg("table", "s"), arg("section", "i"), arg("header", "s"),
                    arg("position", "u"), arg("count", "u"),
                ]
            ) { service, a in
                _ = try CallOptions(a.values[0], known: [])
                return CliptabSignal.sequenceValues(service.clipboard.sequenceStatus)
            },
        ]
    }
}
