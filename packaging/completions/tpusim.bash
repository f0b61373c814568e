# bash completion for tpusim. The subcommands, each one's words and its
# options are read from tpusim's own help (tpusim --help, tpusim SUB --help),
# so they cannot drift from what the program takes; only the values of a few
# options are listed here.
_tpusim() {
    local cur prev sub help
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    sub="${COMP_WORDS[1]}"
    case "$prev" in
        --chip)
            COMPREPLY=($(compgen -W "v4 v5e v5p v6e v7 all" -- "$cur"))
            return ;;
        --dtype|--out-dtype|--score-dtype|--acc|--out|--cast)
            COMPREPLY=($(compgen -W "bf16 f32 int8 fp8 f16 int32" -- "$cur"))
            return ;;
        --trace)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --pass)
            COMPREPLY=($(compgen -W "forward backward both tgmm" -- "$cur"))
            return ;;
        --scheme)
            COMPREPLY=($(compgen -W "w8a16 w8a8 fp8" -- "$cur"))
            return ;;
        --scales)
            COMPREPLY=($(compgen -W "tensor channel block" -- "$cur"))
            return ;;
        --mode)
            COMPREPLY=($(compgen -W "dp fsdp" -- "$cur"))
            return ;;
        --format)
            COMPREPLY=($(compgen -W "jaxpr stablehlo hlo" -- "$cur"))
            return ;;
    esac
    if [ "$COMP_CWORD" -eq 1 ]; then
        local subs
        subs="$(tpusim --help 2>/dev/null | sed -n '/^subcommands:/,/^options/p' | awk '/^  [a-z]/ {print $1}')"
        COMPREPLY=($(compgen -W "$subs --help --version" -- "$cur"))
        return
    fi
    help="$(tpusim "$sub" --help 2>/dev/null)"
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(grep -o -- '--[a-z][a-z-]*' <<<"$help" | sort -u)" -- "$cur"))
        return
    fi
    # The verbs: the first word of each alternative the "words" line lists
    # ("matmul | elementwise", "decode FILE | ops FILE"), lower case only.
    local verbs
    verbs="$(sed -n 's/^  words \.\.\. *//p' <<<"$help" | sed 's/(.*//' | tr '|' '\n' | awk '$1 ~ /^[a-z][a-z-]*$/ {print $1}')"
    if [ "$COMP_CWORD" -eq 2 ] && [ -n "$verbs" ]; then
        COMPREPLY=($(compgen -W "$verbs" -- "$cur"))
        [ ${#COMPREPLY[@]} -gt 0 ] && return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _tpusim tpusim
