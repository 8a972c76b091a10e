#!/usr/bin/env bash
# Programs of one's own, both ways: (1) cmake --install of the build into a prefix, then a
# separate CMake project (test/out-of-tree/) that does find_package(ns3-interconnect), links
# ns3::interconnect, finds the shipped data beside the installed library and runs; (2) the
# build's scratch/ program, built with the module.
#
# usage: test/out-of-tree.sh BUILD_DIR SOURCE_DIR WORK_DIR [FLAGS [COMPILER]]
# FLAGS: what the program is compiled and linked with besides (none: the environment's
# CXXFLAGS and LDFLAGS, as a user's project): a build with the sanitizers (./interconnect test
# --sanitize) gives "-fsanitize=address,undefined", without which a program loads the sanitized
# library without its runtime and crashes. COMPILER: the library's C++ compiler, so that the two
# share one sanitizer runtime (default: CMake's choice).
set -euo pipefail
build="$1" src="$2" work="$3" flags="${4:-}" compiler="${5:-}"
extra=()
[ -z "$flags" ] || extra+=(-DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags")
[ -z "$compiler" ] || extra+=(-DCMAKE_CXX_COMPILER="$compiler")
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
[ -f "$work/prefix/include/ns3/interconnect-module.h" ] || { echo "no installed umbrella header"; exit 1; }
cmake -S "$src/test/out-of-tree" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$work/prefix" ${extra[@]+"${extra[@]}"} >"$work/configure.log" ||
    { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
# Run it from elsewhere, with the source checkout out of reach: the data must be the install's.
out=$(cd / && env -u INTERCONNECT_DATA_DIR "$work/build/user-program")
echo "$out"
grep -qx "data: $work/prefix/share/ns3-interconnect/data" <<<"$out" ||
    { echo "the installed program did not find the installed data"; exit 1; }
grep -Eq '^flows: ([1-9][0-9]*)/\1$' <<<"$out" || { echo "not every flow completed"; exit 1; }
"$build/scratch/scratch-example" --bytes=100000 | grep -q '^scratch-example: 100000 bytes in' ||
    { echo "the scratch program did not run"; exit 1; }
echo "out-of-tree: a program built with find_package(ns3-interconnect) and a scratch/ program ran"
