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

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
        echo "check-intree: need root (or sudo) for: $*" >&2
        exit 2
    fi
}

# 1. Debian's ns-3 source package (needs a deb-src entry and dpkg-dev).
mkdir -p "$CACHE_DIR"
tree=$(find "$CACHE_DIR" -maxdepth 3 -type f -name VERSION -path "*ns-$NS3_VERSION/VERSION" \
    -printf '%h\n' 2>/dev/null | head -n 1)
if [ -z "$tree" ]; then
    if ! apt-get indextargets --format '$(CREATED_BY)' 2>/dev/null | grep -qx Sources; then
        echo "check-intree: adding a deb-src entry for Debian's main archive" >&2
        cat <<SRC | as_root tee /etc/apt/sources.list.d/ns3-interconnect-src.sources >/dev/null
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $(. /etc/os-release && echo "$VERSION_CODENAME")
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
        as_root apt-get update -q >&2
    fi
    if ! command -v dpkg-source >/dev/null 2>&1; then
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q dpkg-dev >&2
    fi
    (cd "$CACHE_DIR" && apt-get source ns3 >&2)
    tree=$(find "$CACHE_DIR" -maxdepth 3 -type f -name VERSION -path "*ns-$NS3_VERSION/VERSION" \
        -printf '%h\n' | head -n 1)
    [ -n "$tree" ] || { echo "check-intree: no ns-$NS3_VERSION tree in Debian's source package" >&2; exit 1; }
fi
echo "check-intree: ns-3 tree at $tree" >&2

# 2. The module as contrib/interconnect (a copy of the tracked and new files, not build/).
rm -rf "$tree/contrib/interconnect"
mkdir -p "$tree/contrib/interconnect"
(cd "$ROOT" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$tree/contrib/interconnect")

# 3. Configure and build only what the module needs, with its examples.
cd "$tree"
./ns3 configure -d release -G Ninja --enable-examples --disable-tests --disable-python-bindings \
    --disable-werror --enable-modules=interconnect \
    --filter-module-examples-and-tests=interconnect >&2
./ns3 build >&2

# 4. Run the quickstart example and the module's GoogleTest suites in that build.
out=$(mktemp -d)
./ns3 run "quickstart --flowSize=100000 --out=$out" >&2
grep -q '^0,0,1,write,100000,' "$out/flows.csv" || { echo "check-intree: quickstart wrote no flow record" >&2; exit 1; }
ctest --test-dir cmake-cache/contrib/interconnect --output-on-failure -j "$JOBS"
echo "check-intree: the module builds, runs and passes its tests inside ns-$NS3_VERSION"
