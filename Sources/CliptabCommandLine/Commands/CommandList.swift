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
            CopyCommand.self, FillCommand.self, CutCommand.self, PasteCommand.self, ClipCommand.self,
            ExportCommand.self, ImportCommand.self, ApplyCommand.self, EditCommand.self, LinkCommand.self,
            UnlinkCommand.self, WatchCommand.self, StatusCommand.self,
            ReloadCommand.self, MenuCommand.self,
            PickCommand.self, NameCommand.self, SequenceCommand.self, KeysCommand.self,
            HelpCommand.self, CompletionCommand.self,
        ]
    }

    /// The command named `name`, found without building every command's declaration.
    ///
    /// A shortcut key's `cliptab get` should only pay for `get`. The names repeat the specs';
    /// the end-to-end tests run every name the help lists.
    static func command(named name: String) -> (any CLICommand.Type)? {
        switch name {
        case "tables": return TablesCommand.self
        case "create": return CreateCommand.self
        case "drop": return DropCommand.self
        case "rename": return RenameCommand.self
        case "show": return ShowCommand.self
        case "get": return GetCommand.self
        case "add": return AddCommand.self
        case "insert": return InsertCommand.self
        case "set": return SetCommand.self
        case "rm": return RemoveCommand.self
        case "rm-where": return RemoveWhereCommand.self
        case "mv": return MoveCommand.self
        case "section add": return SectionAddCommand.self
        case "section rm": return SectionRemoveCommand.self
        case "section mv": return SectionMoveCommand.self
        case "section title": return SectionTitleCommand.self
        case "actions": return ActionsCommand.self
        case "do": return DoCommand.self
        case "copy": return CopyCommand.self
        case "fill": return FillCommand.self
        case "cut": return CutCommand.self
        case "paste": return PasteCommand.self
        case "clip": return ClipCommand.self
        case "export": return ExportCommand.self
        case "import": return ImportCommand.self
        case "apply": return ApplyCommand.self
        case "edit": return EditCommand.self
        case "link": return LinkCommand.self
        case "unlink": return UnlinkCommand.self
        case "watch": return WatchCommand.self
        case "status": return StatusCommand.self
        case "reload": return ReloadCommand.self
        case "menu": return MenuCommand.self
        case "pick": return PickCommand.self
        case "name": return NameCommand.self
        case "sequence": return SequenceCommand.self
        case "keys": return KeysCommand.self
        case "help": return HelpCommand.self
        case "completion": return CompletionCommand.self
        default: return nil
        }
    }

    /// The words that group commands.
    static let groups = [
        CommandGroupSpec(name: "section", abstract: "add, delete, move and retitle sections")
    ]

    /// The parser over these commands.
    static var parser: CommandLineParser {
        CommandLineParser(
            command: command(named:), names: { all.map { $0.spec.name } }, groups: groups)
    }
}
