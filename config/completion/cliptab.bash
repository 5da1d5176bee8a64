# bash completion for cliptab. Installed as share/bash-completion/completions/cliptab
# when the cliptab binary cannot print its own (cliptab --completion bash).
# Commands and options follow the CLI contract; table names come from the running daemon.

_cliptab() {
    local cur prev words cword
    if declare -F _init_completion >/dev/null; then
        _init_completion || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi

    local commands="tables create drop rename show get add insert set rm rm-where mv section
        actions do copy cut paste clip export import watch status reload menu help"
    local options="--json --timeout --help --version"

    # The command is the first word that is not an option (or the value of --timeout).
    local i command="" subcommand="" after=0
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --timeout) ((i++)) ;;
            -*) ;;
            *)
                if [[ -z $command ]]; then
                    command=${words[i]}
                elif [[ $command == section && -z $subcommand ]]; then
                    subcommand=${words[i]}
                else
                    ((after++))
                fi
                ;;
        esac
    done

    case $prev in
        --timeout) return ;;
        --format)
            COMPREPLY=($(compgen -W "json tsv lines" -- "$cur"))
            return
            ;;
    esac
    if [[ $cur == -* ]]; then
        local extra=""
        case $command in
            add) extra="--section" ;;
            rm-where) extra="--dry-run" ;;
            export) extra="--format" ;;
            import) extra="--format --replace" ;;
            section) extra="--at --header --footer" ;;
        esac
        COMPREPLY=($(compgen -W "$options $extra" -- "$cur"))
        return
    fi
    if [[ -z $command ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return
    fi
    if [[ $command == section && -z $subcommand ]]; then
        COMPREPLY=($(compgen -W "add rm mv title" -- "$cur"))
        return
    fi
    case $command in
        help)
            [[ $after -eq 0 ]] && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
            ;;
        tables | clip | status | reload) ;;
        import)
            if [[ $after -eq 0 ]]; then
                COMPREPLY=($(compgen -W "$(cliptab tables 2>/dev/null)" -- "$cur"))
            else
                COMPREPLY=($(compgen -f -- "$cur"))
            fi
            ;;
        do)
            if [[ $after -eq 0 ]]; then
                COMPREPLY=($(compgen -W "$(cliptab tables 2>/dev/null)" -- "$cur"))
            elif [[ $after -eq 1 ]]; then
                COMPREPLY=($(compgen -W "copy cut paste delete move edit insert" -- "$cur"))
            fi
            ;;
        rm-where)
            if [[ $after -eq 0 ]]; then
                COMPREPLY=($(compgen -W "$(cliptab tables 2>/dev/null)" -- "$cur"))
            elif [[ $after -eq 1 ]]; then
                COMPREPLY=($(compgen -W "equals contains prefix suffix matches '>' '>=' '<' '<=' '==' '!='" -- "$cur"))
            fi
            ;;
        *)
            # Every other command takes a table name first.
            [[ $after -eq 0 ]] && COMPREPLY=($(compgen -W "$(cliptab tables 2>/dev/null)" -- "$cur"))
            ;;
    esac
}
complete -F _cliptab cliptab
