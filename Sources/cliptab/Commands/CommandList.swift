// SPDX-License-Identifier: MIT

/// Every command and group, in the order the general help lists them.
enum CommandList {
    /// The commands.
    static var all: [any CLICommand.Type] {
        [
            TablesCommand.self, CreateCommand.self, DropCommand.self, RenameCommand.self, ShowCommand.self,
            GetCommand.self, AddCommand.self, InsertCommand.self, SetCommand.self, RemoveCommand.self,
            RemoveWhereCommand.self, MoveCommand.self, SectionAddCommand.self, SectionRemoveCommand.self,
            SectionMoveCommand.self, SectionTitleCommand.self, ActionsCommand.self, DoCommand.self,
            CopyCommand.self, CutCommand.self, PasteCommand.self, ClipCommand.self, ExportCommand.self,
            ImportCommand.self, WatchCommand.self, StatusCommand.self, ReloadCommand.self, MenuCommand.self,
            HelpCommand.self, CompletionCommand.self,
        ]
    }

    /// The words that group commands.
    static let groups = [
        CommandGroupSpec(name: "section", abstract: "add, delete, move and retitle sections")
    ]

    /// The parser over these commands.
    static var parser: CommandLineParser { CommandLineParser(commands: all, groups: groups) }
}
