// SPDX-License-Identifier: MIT
import Quoting

/// Filling a template in: the one pure function behind every copy and paste of a templates
/// table's row.
extension Template {
    /// Expands `text`, a row of table `table` (named `origin`, if it has a name, so that a
    /// snippet naming it again is a cycle), with what `context` gives.
    ///
    /// Throws `InvalidTemplate` (a malformed text, a nested snippet that is, a cycle),
    /// `LimitExceeded` (output, depth, placeholders), `NoSuchRow` (a snippet naming no row)
    /// and `InputRequired` naming the labels without a value; when inspecting, only the
    /// first three.
    public static func expand(
        _ text: String, table: String, origin: String? = nil, context: TemplateContext
    ) throws(CliptabError) -> TemplateExpansion {
        let template: Template
        do { template = try parse(text, context) } catch {
            throw error.contractError
        }
        var run = ExpansionRun(context: context)
        if let origin { run.visiting.append(table + "/" + origin) }
        try run.expand(template, table: table, depth: 0)
        var result = TemplateExpansion(
            text: run.output, needsClipboard: run.needsClipboard, inputs: run.inputs,
            missingInputs: run.missing, isSecret: run.isSecret)
        if let mark = run.cursor {
            let utf8 = run.output.utf8
            result.charactersAfterCursor = run.output[utf8.index(utf8.startIndex, offsetBy: mark)...].count
        }
        if !context.isInspection && !run.missing.isEmpty {
            throw CliptabError(
                .inputRequired,
                "the template needs a value for "
                    + run.missing.map { Quotation.quoted($0) }.joined(separator: ", ")
                    + " (labels of {input:…})")
        }
        return result
    }

    /// `text` parsed, through the context's cache when it has one.
    static func parse(_ text: String, _ context: TemplateContext) throws(TemplateSyntaxError) -> Template {
        if let cache = context.cache { return try cache.template(text, limits: context.limits) }
        return try Template(parsing: text, limits: context.limits)
    }
}

/// The state of one expansion as it goes through nested snippets.
private struct ExpansionRun {
    let context: TemplateContext
    var output = ""
    var cursor: Int?
    var needsClipboard = false
    var isSecret = false
    var inputs: [TemplateInput] = []
    var missing: [String] = []
    var visiting: [String] = []
    var filled = 0
    var defaults: [String: String] = [:]

    init(context: TemplateContext) { self.context = context }

    mutating func expand(_ template: Template, table: String, depth: Int) throws(CliptabError) {
        // A label's default, written at any of its uses, serves all of them.
        for case .input(let label, let value?) in template.parts where defaults[label] == nil {
            defaults[label] = value
        }
        for part in template.parts {
            if case .literal(let text) = part {
                try append(text)
                continue
            }
            filled += 1
            if filled > context.limits.maxExpandedPlaceholders {
                throw CliptabError(
                    .limitExceeded,
                    "the expansion fills in more than \(context.limits.maxExpandedPlaceholders) placeholders")
            }
            switch part {
            case .literal: break
            case .clipboard:
                if let text = context.clipboard {
                    isSecret = isSecret || context.isClipboardSecret
                    try append(text)
                } else {
                    needsClipboard = true
                }
            case .clock(let clock):
                try append(clock.format.render(context.zone.civil(at: instant(of: clock))))
            case .uuid: try append(uuid())
            case .cursor:
                // Only the row pasted has a caret to place; a nested snippet's mark is text's end.
                if depth == 0 { cursor = output.utf8.count }
            case .input(let label, let defaultValue):
                if !inputs.contains(where: { $0.label == label }) {
                    inputs.append(TemplateInput(label: label, defaultValue: defaultValue))
                }
                if let value = context.inputs[label] ?? defaultValue ?? defaults[label] {
                    try append(value)
                } else if !missing.contains(label) {
                    missing.append(label)
                }
            case .snippet(let named, let name):
                try snippet(table: named ?? table, name: name, depth: depth)
            }
        }
    }

    private mutating func snippet(table: String, name: String, depth: Int) throws(CliptabError) {
        let key = table + "/" + name
        guard let source = context.snippet(table, name) else {
            if context.isInspection { return }
            throw CliptabError(
                .noSuchRow,
                "{snippet:\(key)} names no row: table \(Quotation.quoted(table)) has no row so named")
        }
        isSecret = isSecret || source.isSecret
        guard source.isTemplate else { return try append(source.text) }
        if visiting.contains(key) {
            throw CliptabError(
                .invalidTemplate,
                "the snippets make a cycle: " + (visiting.drop { $0 != key } + [key]).joined(separator: " → ")
            )
        }
        guard depth + 1 <= context.limits.maxDepth else {
            throw CliptabError(
                .limitExceeded,
                "snippets nest deeper than \(context.limits.maxDepth) levels at {snippet:\(key)}")
        }
        let nested: Template
        do { nested = try Template.parse(source.text, context) } catch {
            throw CliptabError(
                .invalidTemplate, "{snippet:\(key)} is malformed at byte \(error.offset): \(error.message)")
        }
        visiting.append(key)
        try expand(nested, table: table, depth: depth + 1)
        visiting.removeLast()
    }

    private mutating func append(_ text: String) throws(CliptabError) {
        output += text
        if output.utf8.count > context.limits.maxOutputBytes {
            throw CliptabError(
                .limitExceeded, "the expansion is larger than \(context.limits.maxOutputBytes) bytes")
        }
    }

    /// The clock moved by the placeholder's offsets: elapsed time for seconds to hours, the
    /// wall-clock date for days to years.
    private func instant(of clock: TemplateClock) -> Int64 {
        var instant = context.now
        for offset in clock.offsets {
            switch offset.unit {
            case .second: instant += offset.amount
            case .minute: instant += offset.amount * 60
            case .hour: instant += offset.amount * 3600
            case .day, .week, .month, .year:
                var wall = context.zone.civil(at: instant)
                let secondsOfDay = wall.hour * 3600 + wall.minute * 60 + wall.second
                switch offset.unit {
                case .day, .week:
                    let days = wall.daysSinceEpoch + offset.amount * (offset.unit == .week ? 7 : 1)
                    (wall.year, wall.month, wall.day) = CivilTime.civil(fromDays: days)
                case .month:
                    let months = wall.year * 12 + (wall.month - 1) + offset.amount
                    wall.year = months >= 0 ? months / 12 : -((-months + 11) / 12)
                    wall.month = months - wall.year * 12 + 1
                default:
                    wall.year += offset.amount
                }
                wall.day = min(wall.day, CivilTime.daysIn(month: wall.month, year: wall.year))
                instant = context.zone.epochSeconds(ofWall: wall.daysSinceEpoch * 86_400 + secondsOfDay)
            }
        }
        return instant
    }

    /// A version 4 UUID from the context's random bits.
    private func uuid() -> String {
        var bytes: [UInt8] = []
        for word in [context.random(), context.random()] {
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        var text: [UInt8] = []
        text.reserveCapacity(36)
        func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }
        for (i, byte) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hex(byte >> 4))
            text.append(hex(byte & 0x0F))
        }
        return String(decoding: text, as: UTF8.self)
    }
}
