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
    # The copy is no git checkout: the commit it was made from goes with it, for the records
    # (cmake/module-commit.cmake).
    local commit
    commit=$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)
    if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
        commit+="-dirty"
    fi
    echo "$commit" >"$tree/contrib/interconnect/cmake/module-commit.txt"
    # ns-3 writes build/include/ns3/<name>.h once, as a stub that includes the header where it
    # was: a header that moved to another folder would still be looked for where it was.
    if [ -d "$tree/build/include/ns3" ]; then
        { grep -lF "$tree/contrib/interconnect/" "$tree"/build/include/ns3/*.h 2>/dev/null || true; } |
            xargs -r rm -f
        # ns-3 writes the stubs when CMake runs: make the next build run it, even when the
        # module's CMakeLists.txt is older than the last configure (an unchanged checkout).
        touch "$tree/contrib/interconnect/CMakeLists.txt"
    fi
}

# A pristine upstream tree (a release or ns-3-dev) from the ns-3 project, fetched once into the
# cache. Where this machine cannot reach the project, say so and ask for a path.
#
#   ns3_upstream_tree CACHE_DIR 3.48|dev   prints the path of the tree
ns3_upstream_tree() {
    local cache="$1" version="$2" tree dir url
    dir="$cache/upstream"
    tree="$dir/ns-$version"
    mkdir -p "$dir"
    if [ ! -f "$tree/VERSION" ]; then
        rm -rf "$tree"
        if [ "$version" = dev ]; then
            url=https://gitlab.com/nsnam/ns-3-dev.git
            git clone -q --depth 1 "$url" "$tree" >&2 || true
        else
            url="https://www.nsnam.org/releases/ns-allinone-$version.tar.bz2"
            if curl -fsSL --max-time 600 "$url" -o "$dir/ns-allinone-$version.tar.bz2" >&2; then
                tar -xjf "$dir/ns-allinone-$version.tar.bz2" -C "$dir" &&
                    mv "$dir/ns-allinone-$version/ns-$version" "$tree" &&
                    rm -rf "$dir/ns-allinone-$version" "$dir/ns-allinone-$version.tar.bz2"
            fi
        fi
        if [ ! -f "$tree/VERSION" ]; then
            rm -rf "$tree"
            echo "interconnect: cannot fetch ns-$version from $url (no network to it here?):" \
                "give an ns-3 source tree instead: check-intree --ns3=PATH" >&2
            exit 1
        fi
    fi
    ns3_copied_tree "$cache" "$tree"
}

# A working copy of an ns-3 source tree in the cache (the original is left as it is), kept and
# refreshed between runs so that only what changed is rebuilt.
#
#   ns3_copied_tree CACHE_DIR SOURCE   prints the path of the copy
ns3_copied_tree() {
    local cache="$1" source version copy
    source="$(cd "$2" && pwd)"
    version=$(cat "$source/VERSION")
    copy="$cache/intree/ns-$version"
    mkdir -p "$copy"
    # The sources only: not a build of the original, not its contrib/interconnect.
    tar -C "$source" --exclude=./build --exclude=./cmake-cache --exclude=./contrib/interconnect \
        -cf - . | tar -C "$copy" -xf -
    echo "$copy"
}
