// Where the bytes of a wasm module go: its sections, then (if it has a name section) the largest
// function bodies and data segments.
//
//   node web/sizes.mjs [FILE] [N]    (FILE: web/dist/imcts.wasm; N: how many functions, 25)
//
// `IMCTS_WEB_NAMES=1 web/build.sh` builds a module that keeps its names (see web/README.md,
// "Size"); the one the page loads has none, so only its sections are listed.
import { readFileSync } from "node:fs";

const file = process.argv[2] ?? new URL("dist/imcts.wasm", import.meta.url).pathname;
const top = Number(process.argv[3] ?? 25);
const b = readFileSync(file);

let at = 8; // past the magic and version
function leb() {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = b[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return value;
  }
}
function name() {
  const len = leb();
  at += len;
  return b.toString("utf8", at - len, at);
}

const SECTIONS = ["custom", "type", "import", "function", "table", "memory", "global", "export",
  "start", "element", "code", "data", "data count"];
let imports = 0;
const bodies = []; // sizes, in function-index order after the imports
const segments = []; // sizes of the data segments
const names = new Map(); // function index -> name
const dataNames = new Map(); // segment index -> name
console.log(`${file}: ${b.length} bytes`);
while (at < b.length) {
  const id = b[at++];
  const size = leb();
  const end = at + size;
  const label = id === 0 ? `custom "${name()}"` : SECTIONS[id];
  console.log(`  ${String(size).padStart(7)}  ${label}`);
  if (id === 2) {
    for (let n = leb(); n > 0; n--) {
      name();
      name();
      if (b[at++] !== 0) break; // only function imports come first in this module
      leb();
      imports++;
    }
  } else if (id === 10) {
    for (let n = leb(); n > 0; n--) {
      const len = leb();
      bodies.push(len);
      at += len;
    }
  } else if (id === 11) {
    for (let n = leb(); n > 0; n--) {
      const kind = leb();
      if (kind === 2) leb();
      if (kind !== 1) while (b[at++] !== 0x0b); // the offset expression
      const len = leb();
      segments.push(len);
      at += len;
    }
  } else if (label === 'custom "name"') {
    while (at < end) {
      const sub = b[at++];
      const subEnd = leb() + at;
      if (sub === 1 || sub === 9) {
        const map = sub === 1 ? names : dataNames;
        for (let n = leb(); n > 0; n--) map.set(leb(), name());
      }
      at = subEnd;
    }
  }
  at = end;
}
// Rust's legacy mangling (`_ZN5imcts6search…17h<hash>E`) made readable; v0 names (`_R…`, core's)
// are printed as they are.
function demangle(s) {
  if (!s.startsWith("_ZN")) return s;
  const parts = [];
  for (let i = 3; s[i] !== "E" && i < s.length;) {
    const digits = /^\d+/.exec(s.slice(i))[0];
    i += digits.length;
    parts.push(s.slice(i, i + Number(digits)).replace(/^_\$/, "$")); // `_$LT$` starts `<`
    i += Number(digits);
  }
  if (/^h[0-9a-f]{16}$/.test(parts.at(-1))) parts.pop();
  const escapes = { LT: "<", GT: ">", RF: "&", C: ",", BP: "*", SP: "@", u20: " ", u27: "'",
    u3b: ";", u5b: "[", u5d: "]", u7b: "{", u7d: "}", u7e: "~" };
  return parts.join("::").replace(/\$(\w+?)\$/g, (m, e) => escapes[e] ?? m).replaceAll("..", "::");
}

if (names.size > 0) {
  console.log(`largest of ${bodies.length} function bodies (${bodies.reduce((s, x) => s + x, 0)} bytes):`);
  bodies.map((size, i) => [size, demangle(names.get(i + imports) ?? `#${i + imports}`)])
    .sort((x, y) => y[0] - x[0]).slice(0, top)
    .forEach(([size, n]) => console.log(`  ${String(size).padStart(7)}  ${n}`));
  console.log(`largest of ${segments.length} data segments (${segments.reduce((s, x) => s + x, 0)} bytes):`);
  segments.map((size, i) => [size, dataNames.get(i) ?? `#${i}`])
    .sort((x, y) => y[0] - x[0]).slice(0, 8)
    .forEach(([size, n]) => console.log(`  ${String(size).padStart(7)}  ${n}`));
}
