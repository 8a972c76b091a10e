#!/usr/bin/env bash
# Sourced by check-intree.sh and setup-mpi.sh: Debian's ns-3 source tree, fetched once into a
# cache directory (needs a deb-src entry, added if missing, and dpkg-dev).
#
#   ns3_source_tree CACHE_DIR VERSION   prints the path of the pristine ns-VERSION tree

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
        echo "interconnect: need root (or sudo) for: $*" >&2
        exit 2
    fi
}

ns3_source_tree() {
    local cache="$1" version="$2" tree
    mkdir -p "$cache"
    tree=$(find "$cache" -maxdepth 3 -type f -name VERSION -path "*/ns3-$version/ns-$version/VERSION" \
        -printf '%h\n' 2>/dev/null | head -n 1)
    if [ -z "$tree" ]; then
        if ! apt-get indextargets --format '$(CREATED_BY)' 2>/dev/null | grep -qx Sources; then
            echo "interconnect: adding a deb-src entry for Debian's main archive" >&2
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
        (cd "$cache" && apt-get source ns3 >&2)
        tree=$(find "$cache" -maxdepth 3 -type f -name VERSION -path "*/ns3-$version/ns-$version/VERSION" \
            -printf '%h\n' | head -n 1)
        [ -n "$tree" ] || { echo "interconnect: no ns-$version tree in Debian's source package" >&2; exit 1; }
    fi
    echo "$tree"
}

# Copy the module's tracked and new files (not build/) into TREE/contrib/interconnect.
copy_module_into() {
    local root="$1" tree="$2"
    rm -rf "$tree/contrib/interconnect"
    mkdir -p "$tree/contrib/interconnect"
    (cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 cp -p --parents -t "$tree/contrib/interconnect")
    # ns-3 writes build/include/ns3/<name>.h once, as a stub that includes the header where it
    # was: a header that moved to another folder would still be looked for where it was.
    if [ -d "$tree/build/include/ns3" ]; then
        grep -lF "$tree/contrib/interconnect/" "$tree"/build/include/ns3/*.h 2>/dev/null |
            xargs -r rm -f
    fi
}
