#!/usr/bin/env bash
# The manual's table of scenario keys is made by the code (interconnect-run --keys): check that
# doc/interconnect.rst holds it between its key-table markers, or (--update) write it there.
#
# usage: scripts/key-table.sh RUNNER DOC [--update]
set -euo pipefail
runner="$1"
doc="$2"
mode="${3:-check}"
table="$(mktemp)"
trap 'rm -f "$table" "$table.doc"' EXIT
"$runner" --keys >"$table"
grep -q '^\.\. key-table-begin$' "$doc" && grep -q '^\.\. key-table-end$' "$doc" ||
    { echo "$doc: no '.. key-table-begin' / '.. key-table-end' markers"; exit 1; }
# The document with the generated table between its markers (a blank line on each side).
awk -v table="$table" '
    /^\.\. key-table-begin$/ { print; print ""; while ((getline line < table) > 0) print line;
                               print ""; skip = 1; next }
    /^\.\. key-table-end$/ { skip = 0 }
    !skip { print }' "$doc" >"$table.doc"
if [ "$mode" = "--update" ]; then
    cp "$table.doc" "$doc"
    echo "key-table: wrote the table into $doc"
elif ! diff -u "$doc" "$table.doc"; then
    echo "key-table: $doc's table differs from interconnect-run --keys (scripts/key-table.sh RUNNER DOC --update)"
    exit 1
else
    echo "key-table: $doc holds the parser's table"
fi
