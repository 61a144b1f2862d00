#!/usr/bin/env bash
# The lifelong benchmark (Chen et al., AAAI 2024; League of Robot Runners format): runs every
# instance in a folder with `gridpath lifelong` and prints one table row each, in Markdown.
#
#   crates/gridpath/benches/lifelong.sh DIR [MAX_AGENTS] [SEEDS] [-- extra gridpath options]
#
# DIR holds the instances' `<map>_<seed>_<agents>.json` (../shared/lifelong beside the clone);
# MAX_AGENTS (8000) leaves out larger teams; SEEDS (0 1 2, quoted) picks the instances' seeds.
# Each run is 1,000 steps with every step checked by the validator; a row gives the tasks
# finished, the planning time per step (mean and p99, ms) and the agents that finished no task
# in the second half of the run (starved) and none at all (idle). Extra options go to every run:
# `-- --guidance none` is plain PIBT.
set -euo pipefail
if [ $# -lt 1 ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
dir=$1
max=${2:-8000}
seeds=${3:-0 1 2}
shift $(( $# < 3 ? $# : 3 ))
[ "${1:-}" = "--" ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$here/../../target}
cargo build --release --quiet --manifest-path "$here/../gridpath_cli/Cargo.toml" --bin gridpath
bin=$target/release/gridpath

echo "| instance | agents | tasks finished | ms/step mean | ms/step p99 | starved | idle |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for json in "$dir"/*.json; do
    name=$(basename "$json" .json)
    agents=${name##*_}
    rest=${name%_*}
    seed=${rest##*_}
    [ "$agents" -le "$max" ] || continue
    case " $seeds " in *" $seed "*) ;; *) continue ;; esac
    line=$("$bin" lifelong "$json" "$@" 2>/dev/null)
    field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$line"; }
    echo "| $rest | $agents | $(field tasks_finished) | $(field ms_per_step_mean) |" \
         "$(field ms_per_step_p99) | $(field starved) | $(field idle) |"
done | sort -t'|' -k2,2 -k3,3n
