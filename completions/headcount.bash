# bash completion for headcount: subcommands, each one's options, --format values, and files where a command
# takes them (specs: *.yaml, *.yml and folders; CSVs; folders for --out and --templates). Installed as
# /usr/share/bash-completion/completions/headcount.

_headcount() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local command="" subcommand="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        solve | check | grade | generate | answers | export | serve | templates | catalogue)
            command=${COMP_WORDS[i]}
            ((i + 1 < COMP_CWORD)) && subcommand=${COMP_WORDS[i + 1]}
            break
            ;;
        esac
    done

    local IFS=$'\n'
    case $prev in
    --format)
        local formats
        case $command in
        solve) formats="markdown html json" ;;
        check) formats="text json" ;;
        grade) formats="class gradescope" ;;
        generate) formats="markdown html" ;; # moodle-xml and qti moved to `headcount export`
        catalogue) formats="markdown" ;;
        esac
        IFS=' ' read -ra formats <<<"$formats"
        COMPREPLY=($(compgen -W "${formats[*]}" -- "$cur"))
        return
        ;;
    --out | --templates | --katex)
        COMPREPLY=($(compgen -d -- "$cur"))
        return
        ;;
    --submissions)
        COMPREPLY=($(compgen -f -X '!*.csv' -- "$cur") $(compgen -f -X '!*.jsonl' -- "$cur") $(compgen -d -- "$cur"))
        return
        ;;
    --roster | --key)
        COMPREPLY=($(compgen -f -X '!*.csv' -- "$cur") $(compgen -d -- "$cur"))
        return
        ;;
    --log | --submission | --gradescope-metadata | --gradescope-results | --secret | --binary)
        COMPREPLY=($(compgen -f -- "$cur"))
        return
        ;;
    --feedback)
        COMPREPLY=($(compgen -W $'files\nnone' -- "$cur"))
        return
        ;;
    --part | --answer | --seed | --student | --problems | --threads | --attempts | --connections-per-address | --host | --port | --student-rate | --address-rate | --variants | --serve-url)
        return # free text
        ;;
    esac

    local options
    case $command in
    "")
        COMPREPLY=($(compgen -W $'solve\ncheck\ngrade\ngenerate\nanswers\nexport\nserve\ntemplates\ncatalogue\n--help\n--version' -- "$cur"))
        return
        ;;
    solve) options=$'--format\n--out\n--templates\n--help' ;;
    check) options=$'--part\n--answer\n--format\n--seed\n--student\n--roster\n--reveal\n--templates\n--help' ;;
    grade) options=$'--submissions\n--out\n--format\n--problems\n--feedback\n--html\n--threads\n--seed\n--roster\n--key\n--reveal\n--templates\n--help' ;;
    generate) options=$'--roster\n--seed\n--out\n--format\n--variants\n--solutions-in-bank\n--serve-url\n--secret\n--templates\n--help' ;;
    answers) options=$'--submission\n--out\n--student\n--gradescope-metadata\n--roster\n--gradescope-results\n--help' ;;
    export)
        case $subcommand in
        moodle) options=$'--out\n--seed\n--variants\n--roster\n--templates\n--help' ;;
        canvas) options=$'--out\n--seed\n--variants\n--roster\n--solutions-in-bank\n--templates\n--help' ;;
        gradescope) options=$'--out\n--seed\n--roster\n--reveal\n--binary\n--templates\n--help' ;;
        *)
            COMPREPLY=($(compgen -W $'moodle\ncanvas\ngradescope\n--help' -- "$cur"))
            return
            ;;
        esac
        ;;
    serve) options=$'--host\n--port\n--seed\n--roster\n--secret\n--log\n--templates\n--katex\n--attempts\n--connections-per-address\n--threads\n--student-rate\n--address-rate\n--help' ;;
    templates)
        if [[ ${COMP_WORDS[*]:2:COMP_CWORD-2} != *export* ]]; then
            COMPREPLY=($(compgen -W $'export\n--help' -- "$cur"))
        elif [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W $'--force\n--help' -- "$cur"))
        else
            COMPREPLY=($(compgen -d -- "$cur"))
        fi
        return
        ;;
    catalogue)
        if [[ $subcommand == formulas && $prev == --spec ]]; then
            COMPREPLY=($(compgen -f -X '!*.y*ml' -- "$cur") $(compgen -d -- "$cur"))
        elif [[ $subcommand == formulas ]]; then
            COMPREPLY=($(compgen -W $'--spec\n--format\n--help' -- "$cur"))
        elif [[ $subcommand =~ ^(asks|mistakes|training-asks|exports|vary)$ ]]; then
            COMPREPLY=($(compgen -W $'--format\n--help' -- "$cur"))
        else
            COMPREPLY=($(compgen -W $'asks\nmistakes\ntraining-asks\nexports\nvary\nformulas\n--help' -- "$cur"))
        fi
        return
        ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -X '!*.yaml' -- "$cur") $(compgen -f -X '!*.yml' -- "$cur") $(compgen -d -- "$cur"))
    fi
}

complete -o filenames -F _headcount headcount
