# bash completion for tpu-course
_tpu_course() {
    local cur prev
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        --open)
            local places="stack workshop bench chips validation profile labs palette report about"
            local i
            for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15; do places+=" ch$i"; done
            for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14; do places+=" EX$i"; done
            COMPREPLY=($(compgen -W "$places" -- "$cur"))
            return ;;
        --page-size)
            COMPREPLY=($(compgen -W "a4 letter" -- "$cur"))
            return ;;
        --theme)
            COMPREPLY=($(compgen -W "light dark" -- "$cur"))
            return ;;
        --size)
            COMPREPLY=($(compgen -W "1280x800 1440x900 1920x1080" -- "$cur"))
            return ;;
        --chapters)
            COMPREPLY=($(compgen -d -- "$cur"))
            return ;;
        --learner)
            return ;;
        --db|--screenshot|--layout-report|--first-frame|--export-report|--export-progress|--import-run|--import-profile)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
    esac
    COMPREPLY=($(compgen -W "--db --screenshot --layout-report --first-frame --open --size --theme --export-report
        --page-size --learner --export-progress --import-run --import-profile --chapters --version --help" -- "$cur"))
}
complete -o filenames -F _tpu_course tpu-course
