#!/usr/bin/env bash
# Build the module as contrib/interconnect inside Debian's ns-3.37 source tree, run its
# quickstart example and its GoogleTest suites there. Slow (it builds the ns-3 modules the
# module depends on); not part of `./interconnect test`.
#
# usage: scripts/check-intree.sh CACHE_DIR
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_DIR="${1:?usage: check-intree.sh CACHE_DIR}"
JOBS="$(nproc 2>/dev/null || echo 2)"
NS3_VERSION=3.37

# shellcheck source=scripts/ns3-source.sh
source "$ROOT/scripts/ns3-source.sh"

# 1. Debian's ns-3 source package.
tree=$(ns3_source_tree "$CACHE_DIR" "$NS3_VERSION")
echo "check-intree: ns-3 tree at $tree" >&2

# 2. The module as contrib/interconnect (a copy of the tracked and new files, not build/).
copy_module_into "$ROOT" "$tree"

# 3. Configure and build only what the module needs, with its examples.
cd "$tree"
./ns3 configure -d release -G Ninja --enable-examples --disable-tests --disable-python-bindings \
    --disable-werror --enable-modules=interconnect \
    --filter-module-examples-and-tests=interconnect >&2
# (cmake directly: ./ns3 build in ns-3.37 runs one job whatever -j says)
cmake --build cmake-cache -j "$JOBS" >&2

# 4. Run the quickstart example and the module's GoogleTest suites in that build.
out=$(mktemp -d)
./ns3 run "quickstart --flowSize=100000 --out=$out" >&2
grep -q '^0,0,1,write,100000,' "$out/flows.csv" || { echo "check-intree: quickstart wrote no flow record" >&2; exit 1; }
ctest --test-dir cmake-cache/contrib/interconnect --output-on-failure -j "$JOBS"
echo "check-intree: the module builds, runs and passes its tests inside ns-$NS3_VERSION"
