# Sourced by bench/paired.sh and bench/alternated.sh, which compare two builds of
# interconnect-bench, and by bench/profile.sh and bench/miss-curve.sh, which run one: their shared
# checks of ROUNDS, of the cases and of the build directories, each refused by name with exit status
# 2, and the run of one build's bench with its own library.
# The sourcing script sets `script` to its own name, for the messages.

# check_rounds ROUNDS: a whole number from 1 to 999
check_rounds() {
    [[ "$1" =~ ^[1-9][0-9]{0,2}$ ]] || {
        echo "$script: ROUNDS '$1' is not a whole number from 1 to 999" >&2
        exit 2
    }
}

# check_cases CASE...: each a case's name (not an option: the bench's own options are not passed),
# none given twice
check_cases() {
    local c
    local -A given=()
    for c in "$@"; do
        [[ "$c" != -* ]] || {
            echo "$script: CASE '$c' is an option; give case names only (the bench's own options" \
                "are not passed)" >&2
            exit 2
        }
        [[ "$c" =~ ^[A-Za-z0-9][A-Za-z0-9_-]*$ ]] || {
            echo "$script: CASE '$c' is not a case name (letters, digits, '-' and '_')" >&2
            exit 2
        }
        [ -z "${given[$c]:-}" ] || {
            echo "$script: CASE '$c' is given twice" >&2
            exit 2
        }
        given[$c]=1
    done
}

# check_build_dirs DIR...: each holds bench/interconnect-bench
check_build_dirs() {
    local dir
    for dir in "$@"; do
        [ -x "$dir/bench/interconnect-bench" ] || {
            echo "$script: '$dir' holds no bench/interconnect-bench (a build directory is expected)" >&2
            exit 2
        }
    done
}

# run_bench DIR ARG...: DIR's bench with DIR's library (LD_LIBRARY_PATH comes before the
# program's RUNPATH), its arguments as given (an argument vector: no shell reads them)
run_bench() {
    local dir="$1"
    shift
    LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$dir/bench/interconnect-bench" "$@"
}
