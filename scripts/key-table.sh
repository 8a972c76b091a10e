#!/usr/bin/env bash
# The manual's generated tables are made by the code: the scenario keys (interconnect-run
# --keys, between the key-table markers) and the module's attributes and trace sources
# (interconnect-run --attributes, between the attribute-table markers). Check that
# doc/interconnect.rst holds them, or (--update) write them there.
#
# usage: scripts/key-table.sh RUNNER DOC [--update]
set -euo pipefail
runner="$1"
doc="$2"
mode="${3:-check}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$doc" "$work/doc"
for pair in keys:key-table attributes:attribute-table; do
    option="${pair%%:*}"
    marker="${pair#*:}"
    "$runner" "--$option" >"$work/table"
    grep -q "^\.\. $marker-begin\$" "$work/doc" && grep -q "^\.\. $marker-end\$" "$work/doc" ||
        { echo "$doc: no '.. $marker-begin' / '.. $marker-end' markers"; exit 1; }
    # The document with the generated table between its markers (a blank line on each side).
    awk -v table="$work/table" -v begin=".. $marker-begin" -v end=".. $marker-end" '
        $0 == begin { print; print ""; while ((getline line < table) > 0) print line;
                      print ""; skip = 1; next }
        $0 == end { skip = 0 }
        !skip { print }' "$work/doc" >"$work/next"
    mv "$work/next" "$work/doc"
done
if [ "$mode" = "--update" ]; then
    cp "$work/doc" "$doc"
    echo "key-table: wrote the tables into $doc"
elif ! diff -u "$doc" "$work/doc"; then
    echo "key-table: $doc's tables differ from interconnect-run --keys / --attributes (scripts/key-table.sh RUNNER DOC --update)"
    exit 1
else
    echo "key-table: $doc holds the code's tables"
fi
