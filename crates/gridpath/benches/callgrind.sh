#!/usr/bin/env bash
# Search-only instruction counts for Moving AI queries, with valgrind's callgrind: instructions
# repeat exactly from run to run, whatever else the machine is doing, so they make honest
# before/after figures where timings on a shared machine do not.
#
#   crates/gridpath/benches/callgrind.sh MAP.map SCEN.scen EVERY [ALGO...]
#
# Takes the 1st, (1+EVERY)th, (1+2·EVERY)th... scenario of SCEN, and for each algorithm (default:
# astar jps) runs `gridpath scen` under callgrind twice: on that subset, and on a scenario file
# with no scenarios. The difference is the search (and the little per-query bookkeeping around
# it), without reading the map. Prints one line per algorithm:
#   arena2 every 10th (91)  astar  615.3 M instructions  5558.2 expanded/query
# MOVES=four, MOVES=staggered-octile or MOVES=hex-row-odd (any hex type word) searches with other moves (the scenarios'
# published costs then do not apply; only the work is measured). CLASS=FILE searches as a unit
# class (`gridpath route --help`): with `. 2` every cost doubles and the same cells are expanded,
# so the difference is what reading the grid through a class costs.
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
map=$1 scen=$2 every=$3
shift 3
algos=("${@:-astar}")
[ $# -gt 0 ] || algos=(astar jps)
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 2; }

here=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$here/../../target}
cargo build --release --quiet --manifest-path "$here/../gridpath_cli/Cargo.toml" --bin gridpath
bin=$target/release/gridpath

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -n 1 "$scen" > "$work/none.scen"
{ head -n 1 "$scen"; tail -n +2 "$scen" | awk -v n="$every" 'NF && (k++ % n == 0)'; } > "$work/subset.scen"
queries=$(($(wc -l < "$work/subset.scen") - 1))

# A class that changes the costs makes every query a "mismatch": the command exits 1, which
# is not an error here.
instructions() { # the total that callgrind collected for one run of the command
    { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null || true; } \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

name=$(basename "$map" .map)
moves=(--moves "${MOVES:-octile}")
[ -z "${CLASS:-}" ] || moves+=(--class "$CLASS")
for algo in "${algos[@]}"; do
    base=$(instructions "$bin" scen "$map" "$work/none.scen" --algo "$algo" "${moves[@]}")
    all=$(instructions "$bin" scen "$map" "$work/subset.scen" --algo "$algo" "${moves[@]}")
    expanded=$({ "$bin" scen "$map" "$work/subset.scen" --algo "$algo" "${moves[@]}" || true; } | sed -n 's/.*expanded_per_query: \([0-9.]*\).*/\1/p')
    awk -v n="$name" -v e="$every" -v q="$queries" -v a="$algo" -v i=$((all - base)) -v x="$expanded" \
        'BEGIN { printf "%-16s every %-3s (%3d)  %-8s %10.3f M instructions  %8.1f expanded/query\n", n, e "th", q, a, i / 1e6, x }'
done
