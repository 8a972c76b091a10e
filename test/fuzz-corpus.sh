#!/usr/bin/env bash
# Hostile and careless input: every case of the checked-in corpus must end with exit status 1
# and "error: KEY" naming the key at fault, never a signal, never past a time bound.
#   test/fuzz/bad-sets.txt      bad --set values on shipped scenarios (KEY, scenario, sets)
#   test/fuzz/scenarios/*.json  bad scenario files, each naming its key in "// expect: KEY"
#   test/fuzz/bad-options.txt   bad options of the example programs (OPTION, program, arguments)
# plus generated cases too large to check in (nesting 10^5 deep) and paths that are no file.
# Run by ctest: fuzz-corpus.sh EXAMPLES_DIR SOURCE_DIR OUT_DIR
set -uo pipefail
bin="$1"
runner="$bin/interconnect-run"
src="$2"
out="$3"
rm -rf "$out"
mkdir -p "$out"
cases=0
failures=0
# check NAME KEY ARGS...: run the runner, expect status 1 and "error: KEY" on stderr.
check() {
    local name="$1" key="$2"
    shift 2
    cases=$((cases + 1))
    timeout -s KILL 30 "$runner" "$@" --out "$out/run" >"$out/stdout" 2>"$out/stderr" </dev/null
    local status=$?
    if [ "$status" -ne 1 ] || ! grep -qF "error: $key" "$out/stderr"; then
        failures=$((failures + 1))
        echo "FAIL: $name: status $status (expected 1), expected 'error: $key', got:"
        grep -m 3 . "$out/stderr" | sed 's/^/    /'
    fi
}
small=(--set stopTime=20us --set output.plots=false)
while IFS=$'\t' read -r key scenario rest; do
    case "$key" in '#'* | '') continue ;; esac
    args=()
    IFS=$'\t' read -r -a sets <<<"$rest"
    for s in "${sets[@]}"; do
        args+=(--set "$s")
    done
    check "$scenario ${sets[*]}" "$key" "$src/examples/scenarios/$scenario.json" "${small[@]}" "${args[@]}"
done <"$src/test/fuzz/bad-sets.txt"
while IFS=$'\t' read -r key program rest; do
    case "$key" in '#'* | '') continue ;; esac
    IFS=$'\t' read -r -a options <<<"$rest"
    cases=$((cases + 1))
    timeout -s KILL 30 "$bin/$program" "${options[@]}" --out="$out/example" \
        >"$out/stdout" 2>"$out/stderr" </dev/null
    status=$?
    # Our message, or ns-3's own for an option it cannot read at all (an empty value).
    if [ "$status" -ne 1 ] || ! { grep -qF "error: $key" "$out/stderr" ||
        grep -qF "Invalid command-line argument: $key" "$out/stderr"; }; then
        failures=$((failures + 1))
        echo "FAIL: $program ${options[*]}: status $status (expected 1), expected 'error: $key', got:"
        grep -m 3 . "$out/stderr" | sed 's/^/    /'
    fi
done <"$src/test/fuzz/bad-options.txt"
for f in "$src"/test/fuzz/scenarios/*.json; do
    key=$(head -n 1 "$f" | sed -n 's|^// expect: ||p')
    check "$(basename "$f")" "$key" "$f"
done
# Generated: nesting 10^5 deep in a file, 6 x 10^4 deep in a --set value (an argument is at most
# 128 KiB); a path that is no file.
nest() {
    printf '{"seed": 1, "x": '
    for _ in $(seq "$1"); do printf '['; done
    for _ in $(seq "$1"); do printf ']'; done
    printf '}\n'
}
nest 100000 >"$out/deep.json"
check "nesting 10^5 deep" "scenario" "$out/deep.json"
check "nesting 6x10^4 deep in --set" "--set" "$src/examples/scenarios/quickstart.json" \
    --set "name=$(nest 60000 | tail -c +17)"
check "a directory" "scenario" "$src/examples/scenarios"
check "no such file" "scenario" "$out/no-such-file.json"
echo "$cases cases, $failures failures"
echo "$((cases - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
