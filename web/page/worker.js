// The engine in a Web Worker: imcts.wasm (the C ABI of include/imcts.h, built by web/build.sh)
// driven through its exported imcts_* functions, so a long search never freezes the page.
// Messages in: {cmd: "new", game}, {cmd: "play", move}, {cmd: "undo", count},
// {cmd: "think", spec, ms}.
// Messages out: {type: "state", ...} after each command, {type: "search", ...} after a think,
// {type: "error", message}.
"use strict";

const GAMES = { breakthrough: 0, loa: 1, kalah: 2, tictactoe: 3, gomoku: 4 };
const NODES = 500000; // search nodes, 24 bytes each: a 12 MB pool
const STOP = ["iterations", "nodes", "time", "proven", "single move", "pool full", "game over",
  "max depth", "visit limit"];
const PROVEN = ["", "win", "loss", "draw"];
const OUT_CAP = 16384;
const enc = new TextEncoder();
const dec = new TextDecoder();

let x;            // the module's exports
let engine = 0;   // the engine handle (a pointer into wasm memory)
let game = "";
let played = [];  // [{move, side}] since the start, for the last-move mark and the move list
// Scratch memory (addresses), laid out in init().
let IN, OUT, LEN, COUNT, BUDGET, RESULT, ENGINE_MEM, ENGINE_LEN;

const view = () => new DataView(x.memory.buffer);
const bytes = () => new Uint8Array(x.memory.buffer);

function cString(ptr) {
  const b = bytes();
  let end = ptr;
  while (b[end]) end++;
  return dec.decode(b.subarray(ptr, end));
}

function check(status, what) {
  if (status !== 0) throw new Error(`${what}: ${cString(x.imcts_status_str(status))}`);
}

function putString(s) {
  const b = enc.encode(s);
  if (b.length > 1024) throw new Error("input too long");
  bytes().set(b, IN);
  return b.length;
}

// Calls f(buf, capacity, out_len) (the ABI's string-out convention) and returns the text.
function getString(f, what) {
  check(f(OUT, OUT_CAP, LEN), what);
  const n = view().getUint32(LEN, true);
  return dec.decode(bytes().subarray(OUT, OUT + n));
}

function u32Out(f, what) {
  check(f(LEN), what);
  return view().getUint32(LEN, true);
}

async function init() {
  const code = await (await fetch("imcts.wasm")).arrayBuffer();
  const env = { now_us: () => BigInt(Math.round(performance.now() * 1000)) };
  x = (await WebAssembly.instantiate(code, { env })).instance.exports;
  // Everything below lives in pages grown past the module's own data and stack.
  const scratch = x.memory.buffer.byteLength;
  IN = scratch; OUT = IN + 1024; LEN = OUT + OUT_CAP; COUNT = LEN + 8;
  BUDGET = COUNT + 8;
  RESULT = BUDGET + 64; ENGINE_MEM = RESULT + 256;
  x.memory.grow(Math.ceil((ENGINE_MEM - scratch) / 65536));
  check(x.imcts_engine_align(LEN), "align");
  const align = view().getUint32(LEN, true);
  ENGINE_MEM = Math.ceil(ENGINE_MEM / align) * align;
  // An engine's size depends on its game: reserve the largest, so any game fits.
  ENGINE_LEN = 0;
  for (const id of Object.values(GAMES)) {
    check(x.imcts_engine_size(id, NODES, LEN), "size");
    ENGINE_LEN = Math.max(ENGINE_LEN, view().getUint32(LEN, true));
  }
  x.memory.grow(Math.ceil((ENGINE_MEM + ENGINE_LEN - x.memory.buffer.byteLength) / 65536));
}

function state() {
  const moves = getString((b, c, l) => x.imcts_engine_legal_moves(engine, b, c, l, COUNT), "moves");
  return {
    type: "state",
    game,
    version: cString(x.imcts_version()),
    position: getString((b, c, l) => x.imcts_engine_position(engine, b, c, l), "position"),
    moves: moves ? moves.split(" ") : [],
    side: u32Out((p) => x.imcts_engine_side_to_move(engine, p), "side"),
    outcome: ["ongoing", "first", "second", "draw"][u32Out((p) => x.imcts_engine_outcome(engine, p), "outcome")],
    played,
  };
}

function play(move) {
  const side = u32Out((p) => x.imcts_engine_side_to_move(engine, p), "side");
  check(x.imcts_engine_play(engine, IN, putString(move)), `play ${move}`);
  played = [...played, { move, side }];
}

// Searches with `spec` for `ms` milliseconds (the host clock is performance.now()), then plays
// the chosen move.
function think(spec, ms) {
  const n = putString(spec);
  const v = view();
  for (let i = 0; i < 32; i += 4) v.setUint32(BUDGET + i, 0, true);
  v.setBigUint64(BUDGET + 16, BigInt(Math.max(1, Math.round(ms * 1000))), true); // time_us
  v.setUint32(BUDGET + 24, x.imcts_web_clock(), true);                         // clock
  // By spec, so that every label works (`ep`, which the C config struct cannot carry, too).
  check(x.imcts_engine_search_spec(engine, IN, n, BUDGET, RESULT), `search with "${spec}"`);
  const r = view();
  const len = r.getUint32(RESULT + 32, true);
  const result = {
    type: "search",
    spec,
    move: dec.decode(bytes().subarray(RESULT, RESULT + len)),
    value: r.getFloat32(RESULT + 36, true),
    simulations: Number(r.getBigUint64(RESULT + 40, true)),
    nodes: Number(r.getBigUint64(RESULT + 48, true)),
    ms: Number(r.getBigUint64(RESULT + 56, true)) / 1000,
    stop: STOP[r.getUint32(RESULT + 64, true)] || "?",
    proven: PROVEN[r.getUint32(RESULT + 68, true)] || "",
    depth: r.getUint32(RESULT + 72, true),
    pv: getString((b, c, l) => x.imcts_engine_pv(engine, b, c, l, COUNT), "pv"),
  };
  if (result.move) play(result.move);
  return result;
}

const ready = init();

onmessage = async (e) => {
  const m = e.data;
  try {
    await ready;
    if (m.cmd === "new") {
      if (!(m.game in GAMES)) throw new Error(`unknown game ${m.game}`);
      check(x.imcts_engine_init(ENGINE_MEM, ENGINE_LEN, GAMES[m.game], NODES, LEN), "init");
      engine = view().getUint32(LEN, true);
      game = m.game;
      played = [];
    } else if (m.cmd === "play") {
      play(m.move);
    } else if (m.cmd === "undo") {
      for (let i = 0; i < (m.count || 1); i++) {
        check(x.imcts_engine_undo(engine), "undo");
        played = played.slice(0, -1);
      }
    } else if (m.cmd === "think") {
      postMessage(think(m.spec, m.ms));
    }
    postMessage(state());
  } catch (err) {
    postMessage({ type: "error", message: String(err.message || err), fatal: !engine });
    if (engine) postMessage(state());
  }
};
