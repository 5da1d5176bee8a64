// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabCore
import Quoting

/// A configuration read from a file: the settings, what was wrong, and the line of each key.
public struct ParsedConfiguration: Equatable, Sendable {
    /// The settings; defaults where the file was silent or wrong.
    public var configuration: DaemonConfiguration
    /// Everything wrong, in file order; empty for a good file.
    public var problems: [ConfigProblem]
    /// The line of each `section.key` set in the file (tables excluded).
    public var lines: [String: Int]

    /// Reads the settings from a parsed file.
    ///
    /// `environment` looks up variables (`HOME` for `~/` in `data_dir`).
    public init(_ file: ConfigFile, environment: (String) -> String? = ConfigLocation.variable) {
        var configuration = DaemonConfiguration()
        var problems = file.problems
        var lines: [String: Int] = [:]
        var tables: [TableSettings] = []
        func problem(_ line: Int, _ message: String) {
            problems.append(ConfigProblem(file: file.path, line: line, message: message))
        }
        let known = Dictionary(uniqueKeysWithValues: DaemonConfiguration.keys.map { ($0.section, $0.keys) })
        let sectionList = DaemonConfiguration.keys.map {
            $0.section == "table" ? "[table \"NAME\"]" : "[\($0.section)]"
        }.joined(separator: ", ")
        for header in file.sections {
            if known[header.name] == nil {
                problem(header.line, "unknown section [\(header.name)] (known: \(sectionList))")
            } else if header.name == "table" {
                if let name = header.subsection {
                    do {
                        try TableName.validate(name)
                        if !tables.contains(where: { $0.name == name }) {
                            tables.append(TableSettings(name: name))
                        }
                    } catch {
                        problem(header.line, "[table \(Quotation.quoted(name))]: \(error.message)")
                    }
                } else {
                    problem(header.line, "a table section names its table: [table \"NAME\"]")
                }
            } else if let subsection = header.subsection {
                problem(
                    header.line,
                    "[\(header.name)] takes no name; write [\(header.name)], not [\(header.name) \(Quotation.quoted(subsection))]"
                )
            }
        }
        configuration.keys = KeyBinding.read(
            file.entries.filter { $0.section == "keys" }, file: file.path, problems: &problems)
        for entry in file.entries {
            // Unknown or broken sections were reported once, above.
            guard let keys = known[entry.section] else { continue }
            // Its keys are chords, read above.
            if entry.section == "keys" { continue }
            if entry.section == "table" {
                guard let name = entry.subsection, let index = tables.firstIndex(where: { $0.name == name })
                else { continue }
                guard let key = TableKey(rawValue: entry.key) else {
                    problem(
                        entry.line,
                        "unknown key \(Quotation.quoted(entry.key)) in [table \(Quotation.quoted(name))] (known: \(keys.joined(separator: ", ")))"
                    )
                    continue
                }
                do {
                    try key.apply(entry.value, to: &tables[index])
                } catch {
                    problem(entry.line, "\(entry.key): \(error.message)")
                }
                continue
            }
            if entry.section == "menu" {
                if !keys.contains(entry.key) {
                    problem(
                        entry.line,
                        "unknown key \(Quotation.quoted(entry.key)) in [menu] (known: \(keys.joined(separator: ", ")))"
                    )
                }
                // The popup's settings are cliptab-menu's to judge.
                continue
            }
            guard let key = ConfigKey(rawValue: entry.key), key.section == entry.section else {
                problem(
                    entry.line,
                    "unknown key \(Quotation.quoted(entry.key)) in [\(entry.section)] (known: \(keys.joined(separator: ", ")))"
                )
                continue
            }
            lines["\(entry.section).\(entry.key)"] = entry.line
            do {
                try key.apply(entry.value, to: &configuration, environment: environment)
            } catch {
                problem(entry.line, "\(entry.key): \(error.message)")
            }
        }
        configuration.tables = tables
        self.configuration = configuration
        self.problems = problems.sorted { $0.line < $1.line }
        self.lines = lines
    }
}
