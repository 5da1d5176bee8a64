// SPDX-License-Identifier: MIT

/// The shell completion scripts: short shims that hand the command line to the hidden
/// `cliptab __complete`, which answers from the parser's own command declarations (see
/// `Completer`), so that the three shells offer the same words and none re-implements the
/// parser.
///
/// `__complete` prints `words` and one candidate a line, or `files` when the shell is to
/// complete file names itself.
enum CompletionScript {
    /// The script for bash (`complete -F _cliptab cliptab`).
    static func bash() -> String {
        """
        # bash completion for cliptab \(CLIVersion.number), printed by 'cliptab completion bash'.
        # The candidates come from 'cliptab __complete', made from the command declarations
        # the parser uses (table and row names from the daemon, briefly).
        _cliptab() {
            COMPREPLY=()
            local -a answer
            local word
            mapfile -t answer < <(command "${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
            case ${answer[0]-} in
                files)
                    compopt -o filenames 2>/dev/null
                    mapfile -t COMPREPLY < <(compgen -f -- "${COMP_WORDS[COMP_CWORD]}") ;;
                words)
                    for word in "${answer[@]:1}"; do COMPREPLY+=("$(printf '%q' "$word")"); done ;;
            esac
        }

        complete -F _cliptab cliptab

        """
    }

    /// The script for zsh: the body of an autoloaded `_cliptab` (`#compdef cliptab`).
    static func zsh() -> String {
        """
        #compdef cliptab
        # zsh completion for cliptab \(CLIVersion.number), printed by 'cliptab completion zsh'; put
        # it in a directory of $fpath as _cliptab, before compinit runs. The candidates come
        # from 'cliptab __complete', made from the command declarations the parser uses
        # (table and row names from the daemon, briefly).
        local -a answer
        answer=("${(@f)$(command ${words[1]} __complete "${(@Q)words[2,CURRENT]}" 2>/dev/null)}")
        case $answer[1] in
            files) _files ;;
            words) compadd -- "${(@)answer[2,-1]}" ;;
        esac

        """
    }

    /// The script for fish: one function registered with `complete -a`.
    static func fish() -> String {
        """
        # fish completion for cliptab \(CLIVersion.number), printed by 'cliptab completion fish';
        # put it in ~/.config/fish/completions/cliptab.fish. The candidates come from
        # 'cliptab __complete', made from the command declarations the parser uses (table and
        # row names from the daemon, briefly).
        function __cliptab_complete
            set -l words (commandline -opc)
            set -l program $words[1]
            set -e words[1]
            set -l answer (command $program __complete $words (commandline -ct) 2>/dev/null)
            switch "$answer[1]"
                case files
                    __fish_complete_path (commandline -ct)
                case words
                    set -e answer[1]
                    printf '%s\\n' $answer
            end
        end

        complete -c cliptab -f -a '(__cliptab_complete)'

        """
    }
}
