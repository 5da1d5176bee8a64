// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabCore
import DBus

/// The cost of filling a template in: `Copy` of a templates table's row with five
/// placeholders against `Copy` of a plain row of the same stored length, over the bus, with
/// the clipboard on a private Xvfb, alternated in the same run.
enum TemplateBenchmark {
    /// Pairs of calls timed (odd, so the median is one run).
    static let repetitions = 401
    /// The template: an input with its default, the date, the time, a UUID and a snippet.
    static let template = "Hi {input:Name=you}, on {date:%d.%m.%Y} at {time} ({uuid}) -- {snippet:sig}"

    static func run() throws {
        let session = try BenchSession(name: "template", withDisplay: true)
        let client = try BusConnection.connect(address: session.address)
        let plain = String(repeating: "x", count: template.utf8.count)
        let cliptab = session.cliptab(client)
        let templated = TableCell("tpl", section: 0, row: 0)
        let plainCell = TableCell("plain", section: 0, row: 0)
        try cliptab.createTable("tpl")
        try cliptab.insertRows(templated, [template, "the signature"])
        try cliptab.setRowName(TableCell("tpl", section: 0, row: 1), "sig")
        try cliptab.setTemplates("tpl", true)
        try cliptab.createTable("plain")
        try cliptab.insertRow(plainCell, plain)
        let filled = try cliptab.copy(templated)
        guard filled.hasPrefix("Hi you, on "), let text = Optional(filled),
            text.hasSuffix("-- the signature")
        else { throw CliptabError(.invalidArgument, "the template was not filled in: \(filled)") }
        for _ in 0..<20 {  // warm both paths
            try cliptab.copy(plainCell)
            try cliptab.copy(templated)
        }
        let times = try Measure.paired(
            repetitions,
            baseline: { try cliptab.copy(plainCell) }, { _ in try cliptab.copy(templated) })
        print("== template (Copy over a private bus, clipboard on Xvfb; medians of \(repetitions) pairs; µs)")
        let widths = [52, 10, 10, 8, 8]
        Report.row(["figure", "template", "plain", "ratio", "goal"], widths)
        let ratio = times.subject / times.baseline
        Report.row(
            [
                "Copy of a row with 5 placeholders (\(template.utf8.count) B)",
                Report.number(times.subject, 1),
                Report.number(times.baseline, 1), Report.number(ratio, 3), ratio <= 1.1 ? "met" : "MISSED",
            ], widths)
        print("goal: the template's copy <= 1.1x the plain row's")
        // What the daemon adds, alone: the pure expansion of the same row in this process.
        let signature = TemplateSource(text: "the signature", isTemplate: true)
        var context = TemplateContext(
            now: 1_798_759_800, snippet: { _, name in name == "sig" ? signature : nil })
        context.cache = TemplateCache()
        let alone = try Measure.median(repetitions) { _ in
            for _ in 0..<100 { _ = try Template.expand(template, table: "tpl", context: context) }
        }
        print("the expansion alone, in process: \(Report.number(alone / 100, 2)) µs a row")
    }
}
