#!/usr/bin/env bash
# Builds the playground for the browser into a static folder (default dist/web): index.html, the
# .wasm and its JavaScript glue. Serve it with any web server, e.g.
#     web/build.sh && python3 -m http.server -d dist/web
#
# With rustup's wasm target installed (`rustup target add wasm32-unknown-unknown`) it uses that;
# otherwise Debian's rustc-web (`apt-get install rustc-web cargo-web rust-web-src lld-22
# rust-web-llvm`), which
# compiles the standard library for the web from source (nightly's -Z build-std, unlocked with
# RUSTC_BOOTSTRAP on a stable compiler). Nothing here downloads a toolchain or a browser;
# wasm-bindgen's CLI comes from crates.io at the version Cargo.lock has, built once into a cache.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist/web}
cache=${PATHFINDER_WEB_CACHE:-$HOME/.cache/pathfinder-web}
target_dir=${CARGO_TARGET_DIR:-$HOME/.cache/pathfinder-target}/wasm
target=wasm32-unknown-unknown
began=$(date +%s)

if rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    cargo build -p pathfinder_playground --profile web --target "$target" --target-dir "$target_dir"
elif [ -x /usr/bin/rustc ] && [ -d /usr/lib/rustlib/src/rust/library ]; then
    PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc CARGO=/usr/bin/cargo RUSTC_BOOTSTRAP=1 \
        /usr/bin/cargo build -p pathfinder_playground --profile web --target "$target" \
        --target-dir "$target_dir" \
        -Z build-std=std,panic_abort
else
    echo "no compiler for $target: rustup target add $target, or apt-get install" \
        "rustc-web cargo-web rust-web-src lld-22 rust-web-llvm" >&2
    exit 1
fi
wasm="$target_dir/$target/web/pathfinder_playground.wasm"

version=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
bindgen="$cache/wasm-bindgen-$version/bin/wasm-bindgen"
if [ ! -x "$bindgen" ]; then
    # Not --locked: one of the CLI's locked dependencies is no longer on crates.io.
    cargo install wasm-bindgen-cli --version "$version" --root "$cache/wasm-bindgen-$version"
fi

rm -rf "$out"
mkdir -p "$out"
"$bindgen" --target web --no-typescript --remove-name-section --out-dir "$out" "$wasm"
# binaryen's optimiser, from npm, if it is there (web/package.json): a smaller .wasm.
wasm_opt=web/node_modules/.bin/wasm-opt
if [ -x "$wasm_opt" ]; then
    "$wasm_opt" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
        --enable-mutable-globals --enable-reference-types --enable-multivalue \
        "$out/pathfinder_playground_bg.wasm" -o "$out/pathfinder_playground_bg.wasm"
fi
cp web/index.html "$out/"
size=$(stat -c %s "$out/pathfinder_playground_bg.wasm")
gz=$(gzip -9 -c "$out/pathfinder_playground_bg.wasm" | wc -c)
echo "web build in $(( $(date +%s) - began )) s: $out (.wasm $(( size / 1000 )) kB, gzipped $(( gz / 1000 )) kB)"
