# Sourced by the tests of bench/'s scripts that read interconnect-bench's lines (profile.sh,
# miss-curve.sh): their shared start and a stand-in bench.

# fail MESSAGE...: the test fails, saying why
fail() {
    echo "FAIL: $*"
    exit 1
}

# stub_bench DIR CASE=HOPS...: DIR/bench/interconnect-bench, a stand-in that prints the bench's
# header and, for the case it is run with, that case's line as interconnect-bench prints it
# (column 7: its packet-hops), and refuses any other case with the bench's status (2)
stub_bench() {
    local dir="$1" c
    shift
    mkdir -p "$dir/bench"
    {
        echo '#!/usr/bin/env bash'
        echo 'echo "case,sim_s,wall_s,cpu_s,events,events_per_cpu_s,packet_hops,hops_per_cpu_s,peak_rss_mb,completed,posted,sys_s,minor_faults"'
        echo 'case "$1" in'
        for c in "$@"; do
            echo "${c%%=*}) echo \"${c%%=*},0,0,0,0,0,${c#*=},0,1,0,0,0,0\" ;;"
        done
        echo "*) echo \"unknown benchmark case '\$1'\" >&2; exit 2 ;;"
        echo 'esac'
    } >"$dir/bench/interconnect-bench"
    chmod +x "$dir/bench/interconnect-bench"
}
