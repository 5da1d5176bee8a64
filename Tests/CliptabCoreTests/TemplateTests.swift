// SPDX-License-Identifier: MIT
import CliptabCore
import Testing

/// The placeholder language against a table of cases: each placeholder, the escapes, clock
/// offsets across month and year ends and across changes of daylight saving time in a named
/// zone, malformed templates with their offsets, cycles, and the bounds.
@Suite("Templates: the placeholder language")
struct TemplateTests {
    /// 2026-12-31 23:30:00 UTC, a Thursday.
    static let newYearsEve: Int64 = 1_798_759_800

    /// Europe/Berlin from the system's zoneinfo (tzdata is a dependency of the build image).
    static func berlin() throws -> ZoneRules {
        try ZoneRules(name: "Europe/Berlin", tzif: try TemplateFixtures.zoneBytes("Europe/Berlin"))
    }

    /// A context at `now` whose randomness counts up, so UUIDs are known.
    static func context(
        now: Int64 = newYearsEve, zone: ZoneRules = .utc, clipboard: String? = "CLIP",
        inputs: [String: String] = [:], snippets: [String: TemplateSource] = [:],
        limits: TemplateLimits = .defaults
    ) -> TemplateContext {
        var counter: UInt64 = 0
        return TemplateContext(
            now: now, zone: zone, clipboard: clipboard, inputs: inputs,
            random: {
                counter += 1
                return counter
            }, snippet: { table, name in snippets[table + "/" + name] }, limits: limits)
    }

    static func expand(_ text: String, _ context: TemplateContext = context()) throws -> String {
        try Template.expand(text, table: "t", context: context).text
    }

    /// Text as it is, the escapes, and every placeholder without arguments.
    @Test(
        "Plain text, escapes and simple placeholders",
        arguments: [
            ("plain text, with commas", "plain text, with commas"),
            ("", ""),
            ("{{x}} and {{{{", "{x} and {{"),
            ("a}}b", "a}b"),
            ("[{clipboard}]", "[CLIP]"),
            ("{date}", "2026-12-31"),
            ("{time}", "23:30"),
            ("{datetime}", "2026-12-31 23:30"),
            ("{uuid}", "00000000-0000-4001-8000-000000000002"),
            ("é{cursor}ü", "éü"),
            ("{date:%d.%m.%Y %H:%M:%S}", "31.12.2026 23:30:00"),
            (
                "{date:%a %A %b %B %j %u %w %y %e %p %I %l}",
                "Thu Thursday Dec December 365 4 4 26 31 PM 11 11"
            ),
            ("{date:%F %T %R %D %s %z %Z %%}", "2026-12-31 23:30:00 23:30 12/31/26 1798759800 +0000 UTC %"),
            ("{date:%n%t}", "\n\t"),
        ])
    func simple(text: String, expected: String) throws {
        #expect(try Self.expand(text) == expected)
    }

    /// Offsets: elapsed time for s, m, h; the calendar for d, w, M, y, across month and year ends.
    @Test(
        "Offsets across month and year ends",
        arguments: [
            ("{date +1d}", "2027-01-01"),
            ("{time +30m}", "00:00"),
            ("{time -30m}", "23:00"),
            ("{datetime +45s:%F %T}", "2026-12-31 23:30:45"),
            ("{datetime +1845s:%F %T}", "2027-01-01 00:00:45"),
            ("{datetime +1h}", "2027-01-01 00:30"),
            ("{date -1y}", "2025-12-31"),
            ("{date +2M}", "2027-02-28"),
            ("{date -10M}", "2026-02-28"),
            ("{date -12M}", "2025-12-31"),
            ("{date +1w}", "2027-01-07"),
            ("{date -365d}", "2025-12-31"),
            ("{date +1M -1d}", "2027-01-30"),
            ("{date +59d}", "2027-02-28"),
            ("{date +1156d}", "2030-03-01"),
        ])
    func offsets(text: String, expected: String) throws {
        #expect(try Self.expand(text) == expected)
    }

    /// 29 February plus a year is 28 February; a leap day is found four years on.
    @Test("Leap days")
    func leapDays() throws {
        let leapDay: Int64 = 1_709_193_909  // 2024-02-29 08:05:09 UTC
        #expect(try Self.expand("{date +1y}", Self.context(now: leapDay)) == "2025-02-28")
        #expect(try Self.expand("{date +4y}", Self.context(now: leapDay)) == "2028-02-29")
        #expect(try Self.expand("{date +1M}", Self.context(now: leapDay)) == "2024-03-29")
        #expect(try Self.expand("{date:%j}", Self.context(now: leapDay)) == "060")
    }

    /// Across a change of daylight saving time in Europe/Berlin: `+1d` keeps the time of day
    /// (23 or 25 hours later), `+24h` is 24 hours later; a wall time in the gap comes out
    /// after it.
    @Test("Daylight saving time in a named zone")
    func daylightSaving() throws {
        let zone = try Self.berlin()
        let spring: Int64 = 1_774_695_600  // 2026-03-28 11:00 UTC, 12:00 CET
        let autumn: Int64 = 1_792_836_000  // 2026-10-24 10:00 UTC, 12:00 CEST
        let format = ":%F %H:%M %Z %z}"
        #expect(
            try Self.expand("{datetime" + format, Self.context(now: spring, zone: zone))
                == "2026-03-28 12:00 CET +0100")
        #expect(
            try Self.expand("{datetime +1d" + format, Self.context(now: spring, zone: zone))
                == "2026-03-29 12:00 CEST +0200")
        #expect(
            try Self.expand("{datetime +24h" + format, Self.context(now: spring, zone: zone))
                == "2026-03-29 13:00 CEST +0200")
        #expect(
            try Self.expand("{datetime +1d" + format, Self.context(now: autumn, zone: zone))
                == "2026-10-25 12:00 CET +0100")
        #expect(
            try Self.expand("{datetime +24h" + format, Self.context(now: autumn, zone: zone))
                == "2026-10-25 11:00 CET +0100")
        // 02:30 on 29 March does not exist in Berlin: the day after 02:30 CET is 03:30 CEST.
        let nightBefore = spring - 9 * 3600 - 1800
        #expect(
            try Self.expand("{datetime +1d" + format, Self.context(now: nightBefore, zone: zone))
                == "2026-03-29 03:30 CEST +0200")
        // A fixed zone west of UTC moves the date back.
        #expect(
            try Self.expand("{datetime}", Self.context(zone: .fixed(name: "X", utcOffset: -5 * 3600)))
                == "2026-12-31 18:30")
    }

    /// Inputs: a value given, a default, the same label twice, and the labels missing.
    @Test("Inputs and defaults")
    func inputs() throws {
        #expect(try Self.expand("Hi {input:Name}!", Self.context(inputs: ["Name": "Ann"])) == "Hi Ann!")
        #expect(try Self.expand("{input:Name=you} {input:Name}", Self.context()) == "you you")
        #expect(try Self.expand("{input:Name} {input:Name=you}", Self.context()) == "you you")
        #expect(try Self.expand("{input:Name=}x", Self.context()) == "x")
        #expect(try Self.expand("{input:Name=you}", Self.context(inputs: ["Name": "Bo"])) == "Bo")
        let error = #expect(throws: CliptabError.self) {
            try Self.expand("{input:First} {input:Last} {input:First} {input:Title=Dr}", Self.context())
        }
        #expect(error?.code == .inputRequired)
        #expect(error?.message.contains("\"First\", \"Last\"") == true)
        var inspecting = Self.context()
        inspecting.isInspection = true
        let found = try Template.expand("{input:A} {input:B=b} {input:A}", table: "t", context: inspecting)
        #expect(
            found.inputs == [
                TemplateInput(label: "A", defaultValue: nil), TemplateInput(label: "B", defaultValue: "b"),
            ])
        #expect(found.missingInputs == ["A"])
    }

    /// The cursor mark: the characters after it, counted as a person sees them.
    @Test("The cursor mark counts the characters after it")
    func cursor() throws {
        let result = try Template.expand("<p>{cursor}</p>é\n", table: "t", context: Self.context())
        #expect(result.text == "<p></p>é\n")
        #expect(result.charactersAfterCursor == 6)
        #expect(try Template.expand("none", table: "t", context: Self.context()).charactersAfterCursor == nil)
        #expect(
            try Template.expand("end{cursor}", table: "t", context: Self.context()).charactersAfterCursor == 0
        )
    }

    /// The clipboard not read yet: the result asks for it.
    @Test("A clipboard not given is asked for")
    func clipboardNeeded() throws {
        let result = try Template.expand("a{clipboard}b", table: "t", context: Self.context(clipboard: nil))
        #expect(result.needsClipboard)
        #expect(
            !(try Template.expand("ab", table: "t", context: Self.context(clipboard: nil))).needsClipboard)
    }

    /// Snippets: same table, another table, plain text from a table without templates,
    /// nesting, a missing one, cycles and the depth bound.
    @Test("Snippets, cycles and depth")
    func snippets() throws {
        let snippets = [
            "t/sig": TemplateSource(text: "-- {input:Who=me}", isTemplate: true),
            "other/addr": TemplateSource(text: "Street {{1}}", isTemplate: true),
            "plain/raw": TemplateSource(text: "{not a template}", isTemplate: false),
            "t/a": TemplateSource(text: "A{snippet:b}", isTemplate: true),
            "t/b": TemplateSource(text: "B{snippet:a}", isTemplate: true),
            "t/self": TemplateSource(text: "{snippet:self}", isTemplate: true),
            "t/bad": TemplateSource(text: "oops {", isTemplate: true),
        ]
        let context = Self.context(snippets: snippets)
        #expect(try Self.expand("x {snippet:sig}", context) == "x -- me")
        #expect(try Self.expand("{snippet:other/addr}", context) == "Street {1}")
        #expect(try Self.expand("{snippet:plain/raw}", context) == "{not a template}")
        let cycle = #expect(throws: CliptabError.self) { try Self.expand("{snippet:a}", context) }
        #expect(cycle?.code == .invalidTemplate)
        #expect(cycle?.message.contains("t/a → t/b → t/a") == true)
        #expect(
            (#expect(throws: CliptabError.self) {
                try Template.expand("{snippet:self}", table: "t", origin: "self", context: context)
            })?
            .code == .invalidTemplate)
        #expect(
            (#expect(throws: CliptabError.self) { try Self.expand("{snippet:ghost}", context) })?.code
                == .noSuchRow)
        let bad = #expect(throws: CliptabError.self) { try Self.expand("{snippet:bad}", context) }
        #expect(bad?.code == .invalidTemplate)
        #expect(bad?.message.contains("byte 5") == true)
        // Snippets s1…s10 each nest the next; "{snippet:sK}" nests 11 - K levels.
        var chain: [String: TemplateSource] = [:]
        for level in 1...9 {
            chain["t/s\(level)"] = TemplateSource(text: "{snippet:s\(level + 1)}", isTemplate: true)
        }
        chain["t/s10"] = TemplateSource(text: "end", isTemplate: true)
        // Exactly at the bound of 8 levels: expanded.
        #expect(try Self.expand("{snippet:s3}", Self.context(snippets: chain)) == "end")
        // One past it (9) and two past it (10): refused, naming the bound and the snippet.
        for (head, deepest) in [("s2", "s10"), ("s1", "s9")] {
            let deep = #expect(throws: CliptabError.self) {
                try Self.expand("{snippet:\(head)}", Self.context(snippets: chain))
            }
            #expect(deep?.code == .limitExceeded, "\(head)")
            #expect(
                deep?.message == "snippets nest deeper than 8 levels at {snippet:t/\(deepest)}", "\(head)")
        }
    }

    /// Malformed templates, each refused with the byte offset of what is wrong.
    @Test(
        "Malformed templates name their offset",
        arguments: [
            ("abc {", 4), ("a } b", 2), ("{}", 1), ("é{nope}", 3), ("{date:%Q}", 6), ("{date:%}", 6),
            ("{date +1x}", 8), ("{date +d}", 6), ("{date 1d}", 6), ("{date +1234567d}", 6),
            ("{date +1dd}", 9),
            ("{uuid:x}", 5), ("{cursor}{cursor}", 8), ("{snippet:}", 8), ("{snippet:9x}", 9),
            ("{snippet:a/b/c}", 11), ("{input:}", 7), ("{input}", 6), ("{a{b}", 2), ("{clipboard", 0),
            ("{snippet:/x}", 9),
        ])
    func malformed(text: String, offset: Int) throws {
        let error = #expect(throws: TemplateSyntaxError.self) { try Template(parsing: text) }
        #expect(error?.offset == offset, "\(text): \(error?.message ?? "")")
        #expect(error?.contractError.code == .invalidTemplate)
        #expect(error?.contractError.message.contains("at byte \(offset)") == true)
    }

    /// The bounds: placeholders per template, per expansion, and the output size.
    @Test("The bounds of a template and its expansion")
    func bounds() throws {
        let limits = TemplateLimits(
            maxPlaceholders: 3, maxExpandedPlaceholders: 5, maxDepth: 8, maxOutputBytes: 20)
        #expect(throws: TemplateSyntaxError.self) {
            try Template(parsing: "{uuid}{uuid}{uuid}{uuid}", limits: limits)
        }
        _ = try Template(parsing: "{uuid}{uuid}{uuid}", limits: limits)
        let many = ["t/x": TemplateSource(text: "{date}{date}{date}", isTemplate: true)]
        let tooMany = #expect(throws: CliptabError.self) {
            try Self.expand("{snippet:x}{snippet:x}", Self.context(snippets: many, limits: limits))
        }
        #expect(tooMany?.code == .limitExceeded)
        let large = #expect(throws: CliptabError.self) {
            try Self.expand(
                "{input:a}", Self.context(inputs: ["a": String(repeating: "z", count: 21)], limits: limits))
        }
        #expect(large?.code == .limitExceeded)
        #expect(
            try Self.expand(
                "{input:a}", Self.context(inputs: ["a": String(repeating: "z", count: 20)], limits: limits)
            ).count == 20)
    }

    /// The calendar arithmetic against known day numbers, far from 1970 too.
    @Test("Civil dates and day numbers")
    func civil() {
        #expect(CivilTime.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilTime.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilTime.days(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilTime.civil(fromDays: -719_468) == (0, 3, 1))
        for day in stride(from: Int64(-1_000_000), through: 1_000_000, by: 997) {
            let date = CivilTime.civil(fromDays: day)
            #expect(CivilTime.days(year: date.year, month: date.month, day: date.day) == day)
        }
    }

    /// The cache of parsed templates changes no result, refuses what is malformed as the
    /// parser does, and stays within its capacity.
    @Test("The parse cache memoizes, within its bound")
    func parseCache() throws {
        let cache = TemplateCache(capacity: 2)
        var cached = Self.context()
        cached.cache = cache
        for text in ["{date} {time}", "{{x}}", "{date} {time}", "a {input:X=y}", "{{x}}"] {
            #expect(try Self.expand(text, cached) == (try Self.expand(text, Self.context())))
        }
        #expect(throws: CliptabError.self) { try Self.expand("{nope}", cached) }
        #expect(throws: CliptabError.self) { try Self.expand("{nope}", cached) }
        let long = String(repeating: "a", count: TemplateCache.maxTextBytes) + "{date}"
        #expect(try Self.expand(long, cached).hasSuffix("2026-12-31"))
    }
}
