// The page: draws the board from the engine's position string, turns clicks into moves from the
// engine's legal-move list, and asks the worker (worker.js) to think on the engine's turns.
"use strict";

const $ = (id) => document.getElementById(id);
// The strongest measured player of each game (web/README.md, "Players"); Tic-Tac-Toe and Gomoku
// keep the plain ones.
const DEFAULT_SPEC = {
  breakthrough: "mcts(ipp,im0.4,ep10)", loa: "mcts(fet0,im0.6,c0.3,ep10)",
  kalah: "mcts(fet4,im0.3,ep10)", tictactoe: "mcts", gomoku: "mcts(im0.4)",
};
const SIDE_NAMES = {
  breakthrough: ["White", "Black"], loa: ["Black", "White"], kalah: ["South", "North"],
  tictactoe: ["X", "O"], gomoku: ["Black", "White"],
};
const SIZE = { breakthrough: 8, loa: 8, tictactoe: 3, gomoku: 15 };

let worker = null;
let st = null;          // the last state from the worker
let thinking = false;   // a search is running in the worker
let pending = 0;        // commands sent whose new state has not come back
let halted = "";        // an error message; the engine waits until the spec changes
let selected = null;    // the chosen from-square of a two-click move
let human = 0;          // 0: the human moves first, 1: second

function startWorker() {
  if (worker) worker.terminate();
  worker = new Worker("worker.js");
  worker.onmessage = (e) => receive(e.data);
  thinking = false;
  pending = 0;
}

function send(msg) {
  if (msg.cmd === "think") thinking = true;
  pending++;
  worker.postMessage(msg);
  render();
}

function newGame() {
  if (thinking) startWorker(); // a search cannot be interrupted: start a fresh worker
  human = Number($("human").value);
  selected = null;
  halted = "";
  ["sims", "value", "nodes", "time", "stop", "pv"].forEach((id) => ($(id).textContent = "–"));
  send({ cmd: "new", game: $("game").value });
}

function receive(m) {
  if (m.type === "error") {
    // A state follows unless the engine could not even start.
    thinking = false;
    halted = m.message;
    if (m.fatal) pending = 0;
    $("status").textContent = m.message;
    return;
  }
  if (m.type === "search") {
    $("sims").textContent = m.simulations.toLocaleString("en");
    $("value").textContent = (m.value >= 0 ? "+" : "") + m.value.toFixed(3) +
      (m.proven ? ` (proven ${m.proven})` : "");
    $("nodes").textContent = m.nodes.toLocaleString("en") + (m.depth ? `, depth ${m.depth}` : "");
    $("time").textContent = `${m.ms.toFixed(0)} ms`;
    $("stop").textContent = m.stop;
    $("pv").textContent = m.pv || "–";
    return;
  }
  thinking = false;
  pending = Math.max(0, pending - 1);
  st = m;
  $("version").textContent = `engine ${m.version}, WebAssembly`;
  render();
  engineMove();
}

// Asks the worker for the engine's move when it is the engine's turn and nothing is pending.
function engineMove() {
  if (st && !halted && !pending && st.outcome === "ongoing" && st.side !== human) {
    send({ cmd: "think", spec: $("spec").value.trim(), ms: Number($("think").value) || 1 });
  }
}

// Parses a grid position ("rank/rank/... side") into rows of cells, top row first: null for
// an empty point, 0 or 1 for a piece of the first or second player.
function parseGrid(game, position) {
  return position.split(" ")[0].split("/").map((row) => {
    const cells = [];
    for (const tok of row.match(/\d+|./g)) {
      if (/\d/.test(tok)) for (let i = 0; i < Number(tok); i++) cells.push(null);
      else if (tok === ".") cells.push(null);
      else if (game === "breakthrough") cells.push(tok === "P" ? 0 : 1);
      else cells.push(tok.toUpperCase() === "X" ? 0 : 1);
    }
    return cells;
  });
}

function squareName(game, col, row) {
  const name = String.fromCharCode(97 + col) + (row + 1);
  return game === "tictactoe" ? name.toUpperCase() : name;
}

// The squares a move touches: {from, to} (from is undefined for placements and Kalah houses).
function moveSquares(game, move, side) {
  if (game === "kalah") return { to: (side === 0 ? "S" : "N") + move };
  const m = move.match(/^([a-h]\d)[-x]([a-h]\d)$/);
  return m ? { from: m[1], to: m[2] } : { to: move };
}

function cell(sq, content, classes) {
  const d = document.createElement("div");
  d.className = "cell " + classes;
  d.dataset.sq = sq;
  if (content !== null) d.append(content);
  return d;
}

function piece(owner, game) {
  const p = document.createElement("span");
  const white = (owner === 0) === (SIDE_NAMES[game][0] === "White");
  p.className = `piece ${owner === 0 ? "first" : "second"} ${white ? "white" : "black"}`;
  if (game === "tictactoe") p.textContent = owner === 0 ? "X" : "O";
  return p;
}

function render() {
  const board = $("board");
  if (!st) return;
  const { game } = st;
  const over = st.outcome !== "ongoing";
  const myTurn = !over && !pending && st.side === human;
  board.dataset.state = over ? "over" : myTurn ? "human" : "engine";
  board.dataset.history = st.played.length;
  // Legal moves of the human, by the square clicked (from-square for two-click moves).
  const targets = new Map();
  const froms = new Map();
  if (myTurn) {
    for (const mv of st.moves) {
      const s = moveSquares(game, mv, st.side);
      if (s.from) {
        if (!froms.has(s.from)) froms.set(s.from, new Map());
        froms.get(s.from).set(s.to, mv);
      } else if (mv !== "pass") targets.set(s.to, mv);
    }
    if (selected && froms.has(selected)) for (const [to, mv] of froms.get(selected)) targets.set(to, mv);
  }
  const last = st.played.length ? st.played[st.played.length - 1] : null;
  const lastSq = last ? moveSquares(game, last.move, last.side) : {};
  const mark = (sq) =>
    (targets.has(sq) ? " legal" : "") + (froms.has(sq) && !selected ? " movable" : "") +
    (sq === selected ? " selected" : "") + (sq === lastSq.to || sq === lastSq.from ? " last" : "");
  board.replaceChildren();
  if (game === "kalah") {
    const [south, north, stores] = st.position.split(" ")[0].split("/");
    const s = south.split(","), n = north.split(","), [ss, ns] = stores.split("-");
    board.className = "kalah";
    board.style.gridTemplateColumns = "";
    board.append(cell("N0", ns, "store"));
    for (let i = 6; i >= 1; i--) board.append(cell("N" + i, n[i - 1], mark("N" + i)));
    board.append(cell("S0", ss, "store"));
    for (let i = 1; i <= 6; i++) board.append(cell("S" + i, s[i - 1], mark("S" + i)));
    // South's store sits at the right end of both rows.
    board.children[7].style.gridColumn = "8";
    board.children[7].style.gridRow = "1 / span 2";
  } else {
    const size = SIZE[game];
    const grid = parseGrid(game, st.position);
    board.className = `${game} ${game === "gomoku" || game === "tictactoe" ? "lines" : "checker"}` +
      (size > 8 ? " small" : "");
    board.style.gridTemplateColumns = `repeat(${size}, auto)`;
    grid.forEach((cells, r) => cells.forEach((owner, c) => {
      const row = size - 1 - r;
      const sq = squareName(game, c, row);
      const shade = (row + c) % 2 ? "light" : "dark";
      board.append(cell(sq, owner === null ? null : piece(owner, game), shade + mark(sq)));
    }));
  }
  board.onclick = (e) => {
    const sq = e.target.closest(".cell")?.dataset.sq;
    if (!myTurn || !sq) return;
    if (targets.has(sq)) {
      selected = null;
      send({ cmd: "play", move: targets.get(sq) });
    } else {
      selected = froms.has(sq) && sq !== selected ? sq : null;
      render();
    }
  };
  $("pass").hidden = !(myTurn && st.moves.length === 1 && st.moves[0] === "pass");
  $("undo").disabled = pending > 0 || st.played.length === 0;
  const names = SIDE_NAMES[game];
  const who = (p) => `${names[p]} (${p === human ? "you" : "engine"})`;
  $("status").textContent = halted ? halted : over ? "Game over." : thinking ? `${who(st.side)} is thinking…`
    : `${who(st.side)} to move.`;
  const result = $("result");
  result.hidden = !over;
  result.dataset.outcome = st.outcome;
  result.textContent = st.outcome === "draw" ? "Draw." : over ? `${who(st.outcome === "first" ? 0 : 1)} wins.` : "";
  const list = $("moves");
  list.replaceChildren(...st.played.map((p) => {
    const li = document.createElement("li");
    li.textContent = `${names[p.side]} ${p.move}`;
    return li;
  }));
  list.dataset.moves = st.played.map((p) => p.move).join(" ");
}

$("game").onchange = () => {
  $("spec").value = DEFAULT_SPEC[$("game").value];
  newGame();
};
$("human").onchange = newGame;
$("new").onclick = newGame;
$("spec").onchange = () => {
  halted = "";
  render();
  engineMove();
};
$("pass").onclick = () => send({ cmd: "play", move: "pass" });
$("undo").onclick = () => {
  // Take back the engine's replies and the human's last move: back to the human's turn.
  if (pending || !st.played.length) return;
  let n = 0;
  const p = st.played;
  while (n < p.length && p[p.length - 1 - n].side !== human) n++;
  if (n < p.length) n++;
  selected = null;
  send({ cmd: "undo", count: n });
};

$("spec").value = DEFAULT_SPEC[$("game").value];
startWorker();
newGame();
