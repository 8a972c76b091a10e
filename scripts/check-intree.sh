#!/usr/bin/env bash
# Build the module as contrib/interconnect inside an ns-3 source tree with ns-3's own
# --enable-werror, run its quickstart example, ns-3's automatic example tests (every example
# run without arguments: ctest-<example>) and the module's GoogleTest suites there. Slow (it
# builds the ns-3 modules the module depends on); not part of `./interconnect test`.
#
# usage: scripts/check-intree.sh CACHE_DIR [3.37|3.48|dev|PATH]
#   3.37  Debian's ns-3.37 source package (apt-get source ns3), the default
#   3.48  ns-3.48 from the ns-3 project's release archive (nsnam.org)
#   dev   ns-3-dev from the ns-3 project's git (gitlab.com/nsnam/ns-3-dev)
#   PATH  an ns-3 source tree already on this machine (it is copied, not changed)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_DIR="${1:?usage: check-intree.sh CACHE_DIR [3.37|3.48|dev|PATH]}"
WHICH="${2:-3.37}"
JOBS="$(nproc 2>/dev/null || echo 2)"

# shellcheck source=scripts/ns3-source.sh
source "$ROOT/scripts/ns3-source.sh"

# 1. The tree: a working copy in the cache (the module is copied into its contrib/).
case "$WHICH" in
    3.37)
        tree=$(ns3_source_tree "$CACHE_DIR" 3.37)
        ;;
    3.[0-9]* | dev)
        tree=$(ns3_upstream_tree "$CACHE_DIR" "$WHICH")
        ;;
    /* | ./* | ../*)
        [ -f "$WHICH/VERSION" ] && [ -f "$WHICH/CMakeLists.txt" ] ||
            { echo "check-intree: --ns3=$WHICH: not an ns-3 source tree (no VERSION, CMakeLists.txt)" >&2; exit 2; }
        tree=$(ns3_copied_tree "$CACHE_DIR" "$WHICH")
        ;;
    *)
        echo "check-intree: --ns3=$WHICH: accepted: 3.37, 3.48 (or another release), dev, or the path of an ns-3 source tree" >&2
        exit 2
        ;;
esac
version=$(cat "$tree/VERSION")
echo "check-intree: ns-$version tree at $tree" >&2

# 2. The module as contrib/interconnect (a copy of the tracked and new files, not build/).
copy_module_into "$ROOT" "$tree"

# 3. Configure and build only what the module needs, with its examples and ns-3's example
#    tests, warnings as errors as ns-3 itself builds them.
cd "$tree"
# (csma too: ns-3.37's src/test builds its TCP socket suite, which uses CsmaHelper, whenever
# applications and point-to-point are enabled, as the module's dependencies enable them, so its
# test-runner does not link without csma.)
./ns3 configure -d release -G Ninja --enable-examples --enable-tests --disable-python-bindings \
    --enable-werror --enable-modules="interconnect;csma" \
    --filter-module-examples-and-tests=interconnect >&2
# (cmake directly: ./ns3 build in ns-3.37 runs one job whatever -j says)
cmake --build cmake-cache -j "$JOBS" >&2

# 4. The quickstart example, ns-3's automatic example tests and the module's GoogleTest suites.
out=$(mktemp -d)
./ns3 run --no-build "quickstart --flowSize=100000 --out=$out" >&2
grep -q '^0,0,1,write,100000,' "$out/flows.csv" || { echo "check-intree: quickstart wrote no flow record" >&2; exit 1; }
# ns-3 registers its example tests (ctest-<example>) beside the module's own suites.
# (listed first: grep -q stops reading at its match, and ctest's SIGPIPE would fail the pipe)
listed=$(ctest --test-dir cmake-cache/contrib/interconnect -N)
grep -q 'ctest-interconnect-run$' <<<"$listed" ||
    { echo "check-intree: ns-3 registered no example tests (ctest-<example>)" >&2; exit 1; }
ctest --test-dir cmake-cache/contrib/interconnect --output-on-failure -j "$JOBS"
echo "check-intree: the module builds with -Werror, runs and passes its tests inside ns-$version"
