// Plays every game of the page to its end in headless Chromium, clicking on the board like a
// person (a random legal move each turn, from a fixed seed) against the engine in its worker.
//
//   node web/test/play.mjs        (after web/build.sh; needs Debian's chromium and `imcts`)
//
// Checks: the module is at most 200 KiB (issue 18's limit; web/README.md, "Size"); only legal
// moves are offered (the clicked moves are replayed through the native `imcts engine` protocol,
// which must accept each one and report the same result the page shows); the engine shows
// simulations, a value and a principal variation; undo takes back to the person's turn.
// Screenshots go to web/test-output/.
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(web, "dist");
const out = join(web, "test-output");
const imcts = process.env.IMCTS_BIN || join(web, "..", "target", "release", "imcts");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const THINK_MS = 20;
const MAX_PLIES = 600;

const failures = [];
let undos = 0;
function check(ok, what) {
  if (!ok) {
    failures.push(what);
    console.error("FAIL:", what);
  }
}

// A small seeded generator (mulberry32), so the person's moves repeat from run to run.
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function serve() {
  const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css",
    ".wasm": "application/wasm" };
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    try {
      const body = readFileSync(join(dist, path === "/" ? "index.html" : path.slice(1)));
      res.writeHead(200, { "content-type": types[extname(path)] || "text/html" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

// Replays `moves` in the native engine protocol and returns its final `status` answer.
function nativeStatus(game, moves) {
  return new Promise((resolve, reject) => {
    const p = spawn(imcts, ["engine"]);
    let text = "";
    p.stdout.on("data", (d) => (text += d));
    p.on("error", reject);
    p.on("close", () => resolve(text.trim().split("\n")));
    const cmds = [`game ${game}`, ...moves.map((m) => `play ${m}`), "status", "quit"];
    p.stdin.end(cmds.join("\n") + "\n");
  });
}

async function waitTurn(page) {
  await page.waitForFunction(() => {
    const s = document.getElementById("board").dataset.state;
    return s === "human" || s === "over";
  }, null, { timeout: 60000 });
  return page.$eval("#board", (b) => b.dataset.state);
}

async function clickRandom(page, selector, random) {
  const cells = await page.$$(selector);
  if (!cells.length) return false;
  await cells[Math.floor(random() * cells.length)].click();
  return true;
}

async function playGame(page, game, human, seed, undoAt) {
  const random = rng(seed);
  await page.selectOption("#game", game);
  await page.selectOption("#human", String(human));
  await page.fill("#think", String(THINK_MS));
  await page.click("#new");
  let sawEngine = false;
  let undone = false;
  for (let ply = 0; ply < MAX_PLIES; ply++) {
    if ((await waitTurn(page)) === "over") break;
    const history = Number(await page.$eval("#board", (b) => b.dataset.history));
    if (history > 0) {
      const sims = Number((await page.textContent("#sims")).replace(/,/g, ""));
      const pv = await page.textContent("#pv");
      const value = Number((await page.textContent("#value")).split(" ")[0]);
      if (sims > 0 && pv !== "–" && Math.abs(value) <= 1) sawEngine = true;
    }
    if (!undone && history >= undoAt) {
      // Undo goes back to the person's turn with fewer moves on the board.
      await page.click("#undo");
      await waitTurn(page);
      const after = Number(await page.$eval("#board", (b) => b.dataset.history));
      check(after < history, `${game}: undo from ${history} moves left ${after}`);
      undone = true;
      undos++;
      continue;
    }
    if (await page.isVisible("#pass")) {
      await page.click("#pass");
    } else if (await page.$(".cell.movable")) {
      await clickRandom(page, ".cell.movable", random);
      check(await clickRandom(page, ".cell.legal", random), `${game}: a piece with no targets`);
    } else {
      check(await clickRandom(page, ".cell.legal", random), `${game}: no legal square shown`);
    }
  }
  check((await waitTurn(page)) === "over", `${game}: not over after ${MAX_PLIES} plies`);
  check(sawEngine, `${game}: the engine's simulations, value and PV were never shown`);
  const outcome = await page.$eval("#result", (r) => r.dataset.outcome);
  const resultText = await page.textContent("#result");
  const moves = (await page.$eval("#moves", (m) => m.dataset.moves)).split(" ");
  const native = await nativeStatus(game, moves);
  const status = native[native.length - 2];
  check(native.slice(1, -2).every((l) => l === "ok"), `${game}: a move the native engine refused: ${native.join(" | ")}`);
  const want = { first: "ok over first wins", second: "ok over second wins", draw: "ok over draw" }[outcome];
  check(status === want, `${game}: page says ${outcome}, native engine says '${status}'`);
  check(outcome === "draw" ? /^Draw/.test(resultText) : /wins\.$/.test(resultText),
    `${game}: result text '${resultText}'`);
  await page.screenshot({ path: join(out, `${game}.png`), fullPage: true });
  console.log(`${game}: ${moves.length} plies, ${resultText} (${status}; you played ${human ? "second" : "first"})`);
}

const size = statSync(join(dist, "imcts.wasm")).size;
console.log(`imcts.wasm: ${size} bytes (${(size / 1024).toFixed(1)} KiB)`);
// Issue 18's limit: 200 KiB = 204,800 bytes (web/README.md, "Size", says where the bytes go and
// what keeps the module under it).
const limitKiB = 200;
check(size <= limitKiB * 1024, `imcts.wasm is ${size} bytes, over ${limitKiB} KiB`);

mkdirSync(out, { recursive: true });
const server = await serve();
// A fresh profile each run (playwright passes it as --user-data-dir).
const userDir = mkdtempSync(join(tmpdir(), "imcts-chromium-"));
const browser = await chromium.launchPersistentContext(userDir, {
  executablePath: chromiumPath,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  viewport: { width: 1100, height: 760 },
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await waitTurn(page);
  // A bad spec is reported and the engine waits; a good one lets it play.
  await page.selectOption("#human", "1");
  await page.fill("#spec", "mcts(nonsense)");
  await page.click("#new");
  await page.waitForFunction(() => /player spec/.test(document.getElementById("status").textContent));
  check(await page.$eval("#board", (b) => b.dataset.history) === "0", "a bad spec played a move");
  await page.fill("#spec", "mcts(ipp,im0.4)");
  await page.dispatchEvent("#spec", "change");
  await page.waitForFunction(() => document.getElementById("board").dataset.history === "1");

  const games = [["tictactoe", 0, 4], ["kalah", 1, 6], ["breakthrough", 0, 8], ["gomoku", 1, 6],
    ["loa", 0, 8]];
  for (const [i, [game, human, undoAt]] of games.entries()) {
    await playGame(page, game, human, 1000 + i, undoAt);
  }
  check(undos >= 3, `undo was tried in only ${undos} games`);
  check(errors.length === 0, `page errors: ${errors.join("; ")}`);
} finally {
  await browser.close();
  server.close();
  rmSync(userDir, { recursive: true, force: true });
}
if (failures.length) {
  console.error(`${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("web test: all games played to the end");
