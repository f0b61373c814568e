# bash completion for tpusim
_tpusim() {
    local cur prev sub verbs options
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    sub="${COMP_WORDS[1]}"
    case "$prev" in
        --chip)
            COMPREPLY=($(compgen -W "v4 v5e v5p v6e v7 all" -- "$cur"))
            return ;;
        --dtype|--out-dtype|--score-dtype|--acc|--out)
            COMPREPLY=($(compgen -W "bf16 f32 int8 fp8 f16 int32" -- "$cur"))
            return ;;
        --trace)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --pass)
            COMPREPLY=($(compgen -W "forward backward both" -- "$cur"))
            return ;;
        --scheme)
            COMPREPLY=($(compgen -W "bf16 w8a16 w8a8 fp8" -- "$cur"))
            return ;;
        --scales)
            COMPREPLY=($(compgen -W "tensor channel block" -- "$cur"))
            return ;;
    esac
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "chips roofline bench pipeline vmem blockspec layout mxu attention collective ir
            semaphores fusion profile validate collective-matmul shard-layer grouped-matmul quantized-matmul decode-attention --help --version" -- "$cur"))
        return
    fi
    case "$sub" in
        roofline) verbs="matmul elementwise reduce generic"
            options="--m --k --n --batch --dtype --acc --out --pass --shape --inputs --outputs --flops-per-element --axes --flops --bytes --engine" ;;
        pipeline) verbs="matmul elementwise"
            options="--m --k --n --bm --bk --bn --order --dtype --out-dtype --shape --block --inputs --flops-per-element --vmem-limit-mib --timeline --trace" ;;
        vmem) verbs="matmul attention layernorm"
            options="--sizes --blocks --dtype --buffers --vmem-limit-mib" ;;
        blockspec) verbs="check verify"
            options="--array --block --dtype --space --m --k --n --bm --bk --bn --order --seed" ;;
        layout) options="--shape --dtype --tile --to --transpose --reshape --cast" ;;
        mxu) options="--m --k --n --array --no-overlap --stepped" ;;
        attention) options="--batch --heads --kv-heads --seq --seq-kv --head-dim --block-q --block-k --dtype --score-dtype --causal --bias --pass --verify --window --documents" ;;
        collective-matmul) options="--m --k --n --devices --directions --dtype" ;;
        grouped-matmul) options="--groups --k --n --tm --tk --tn --pass --dtype" ;;
        shard-layer) options="--mesh --roles --mode --batch --d-model --d-ff --dtype --overlap-tp" ;;
        quantized-matmul) options="--m --k --n --scheme --scales --block" ;;
        decode-attention) options="--batch --context --heads --kv-heads --head-dim --page --pages-per-block --dtype --full-grid" ;;
        collective) verbs="all-gather reduce-scatter all-reduce all-to-all permute"
            options="--mesh --axis --bytes --chunks --shift --unidirectional --links --trace" ;;
        ir) verbs="decode ops cost xref shardings"
            options="--format" ;;
        semaphores) options="--devices --trace --events" ;;
        fusion) verbs="mlp softmax attention layernorm" ;;
        profile) options="--device" ;;
        bench) options="--full" ;;
    esac
    if [ "$COMP_CWORD" -eq 2 ] && [ -n "$verbs" ] && [[ "$cur" != -* ]]; then
        COMPREPLY=($(compgen -W "$verbs" -- "$cur"))
        return
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$options --chip --json --help" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _tpusim tpusim
