#!/usr/bin/env bash
# Builds the browser page into web/dist/: the C ABI as imcts.wasm (wasm32-unknown-unknown,
# through web/wasm, linked by web/wasm/link.sh), shrunk with binaryen's wasm-opt from npm, plus
# the static files of web/page/. Serve it with `python3 -m http.server -d web/dist 8000`.
# Installs the wasm32 target and the npm packages (package-lock.json) when missing.
set -euo pipefail
cd "$(dirname "$0")"

rustup target list --installed | grep -qx wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown
[ -x node_modules/.bin/wasm-opt ] || npm ci --no-audit --no-fund

# IMCTS_WEB_NAMES=1 keeps the function names in dist/imcts.wasm for `node sizes.mjs` (the module
# is then larger, and binaryen optimises a little differently).
keep=() strip=(--strip-debug)
if [ -n "${IMCTS_WEB_NAMES:-}" ]; then
  keep=(-g) strip=()
  export CARGO_PROFILE_RELEASE_STRIP=debuginfo
fi
# Link with wasm/link.sh: rust-lld exporting only the functions in exports.txt, so the rest of
# the C ABI and the data only it uses are left out (6,345 bytes; web/README.md, "Size").
IMCTS_WEB_LLD="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/rust-lld"
[ -x "$IMCTS_WEB_LLD" ] || { echo "build.sh: rust-lld (part of rustc) not at $IMCTS_WEB_LLD" >&2; exit 1; }
export IMCTS_WEB_LLD
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$PWD/wasm/link.sh" \
  cargo build --manifest-path wasm/Cargo.toml --release --target wasm32-unknown-unknown
raw=wasm/target/wasm32-unknown-unknown/release/imcts_web.wasm

rm -rf dist
mkdir -p dist
# Keep only the exports the page uses (exports.txt), then optimise for size. The features are
# those rustc enables for wasm32-unknown-unknown (all in every current browser); binaryen's -all
# would also allow newer ones that browsers reject.
features="--enable-bulk-memory --enable-bulk-memory-opt --enable-call-indirect-overlong
  --enable-multivalue --enable-mutable-globals --enable-nontrapping-float-to-int
  --enable-reference-types --enable-sign-ext"
grep -v '^#' exports.txt | node -e '
  const names = require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean);
  const graph = names.map((n) => ({ name: n, export: n, root: true }));
  graph.push({ name: "now_us", import: ["env", "now_us"] });
  process.stdout.write(JSON.stringify(graph));' > dist/exports.json
node_modules/.bin/wasm-metadce $features "${keep[@]}" --graph-file dist/exports.json "$raw" -o dist/kept.wasm > /dev/null
node_modules/.bin/wasm-opt $features -Oz --flatten --rereloop -Oz -Oz "${keep[@]}" "${strip[@]}" --strip-producers \
  dist/kept.wasm -o dist/imcts.wasm
rm dist/exports.json dist/kept.wasm
cp page/index.html page/style.css page/app.js page/worker.js dist/

echo "web/dist/imcts.wasm: $(stat -c %s dist/imcts.wasm) bytes ($(stat -c %s "$raw") before wasm-opt)"
