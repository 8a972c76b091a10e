#!/usr/bin/env bash
# Build an MPI-enabled ns-3 (Debian's ns-3.37 source package, release profile, only the modules
# the module needs plus ns-3's mpi module) with the module in-tree as contrib/interconnect, in
# CACHE_DIR/mpi (outside build/). Several minutes on 2 cores; run again after changing the module
# (only what changed is rebuilt). Ends by running the module's MPI tests (same records on 1, 2
# and 4 ranks); INTERCONNECT_MPI_SKIP_TESTS=1 skips them.
#
# usage: scripts/setup-mpi.sh CACHE_DIR
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_DIR="${1:?usage: setup-mpi.sh CACHE_DIR}"
JOBS="${INTERCONNECT_MPI_JOBS:-$(nproc 2>/dev/null || echo 2)}"
NS3_VERSION=3.37

# shellcheck source=scripts/ns3-source.sh
source "$ROOT/scripts/ns3-source.sh"

# 1. Open MPI from Debian, and a pristine copy of Debian's ns-3 source tree for the MPI build.
missing=""
for pkg in libopenmpi-dev openmpi-bin; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=" $pkg"
done
if [ -n "$missing" ]; then
    echo "setup-mpi: installing$missing" >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >&2
fi
pristine=$(ns3_source_tree "$CACHE_DIR" "$NS3_VERSION")
tree="$CACHE_DIR/mpi/ns-$NS3_VERSION"
if [ ! -f "$tree/VERSION" ]; then
    mkdir -p "$tree"
    (cd "$pristine" && tar --exclude=./build --exclude=./cmake-cache --exclude=./contrib/interconnect \
        -cf - .) | (cd "$tree" && tar -xf -)
fi
echo "setup-mpi: MPI-enabled ns-3 tree at $tree" >&2

# 2. The module in-tree, configured with MPI in the release profile.
copy_module_into "$ROOT" "$tree"
cd "$tree"
# Only the module's examples (interconnect-run is what `run --ranks` starts); its GoogleTest
# suites are the default build's business.
if [ ! -f cmake-cache/CMakeCache.txt ] || ! grep -q '^NS3_MPI:BOOL=ON' cmake-cache/CMakeCache.txt ||
    ! grep -q '^INTERCONNECT_TESTS:BOOL=OFF' cmake-cache/CMakeCache.txt; then
    ./ns3 configure -d release -G Ninja --enable-mpi --enable-examples --disable-tests \
        --disable-python-bindings --disable-werror --enable-modules="interconnect;mpi" \
        --filter-module-examples-and-tests=interconnect -- -DINTERCONNECT_TESTS=OFF >&2
fi
cmake --build cmake-cache -j "$JOBS" >&2
grep -q '^NS3_MPI:BOOL=ON' cmake-cache/CMakeCache.txt ||
    { echo "setup-mpi: the tree was not configured with MPI" >&2; exit 1; }
echo "setup-mpi: ns-$NS3_VERSION with MPI built in $tree (mpirun: $(command -v mpirun))" >&2

# 3. Prove it: fat-tree scenarios give the same records on 1, 2 and 4 ranks.
if [ "${INTERCONNECT_MPI_SKIP_TESTS:-0}" != 1 ]; then
    ctest --test-dir cmake-cache/contrib/interconnect -R '^mpi\.' --output-on-failure >&2
fi
echo "setup-mpi: ready: ./interconnect run SCENARIO --ranks=N"
