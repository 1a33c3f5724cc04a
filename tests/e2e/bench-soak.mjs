// The workshop soak (issue 87): one page, Run after Run of new code, as a
// student spends a long session. Each Run goes to the next of SOAK_PUZZLES
// (client-side, as the list's links go: no page load, so nothing is freed
// by a new document), pastes that puzzle's reference solution with an edit
// no earlier Run had (`editSuffix`: new code, so every cache meets a new
// key), and waits for the verdict. Every SOAK_EVERY Runs it samples the
// resident memory of the browser's processes by kind (the renderer, which
// holds the page and its workers; the GPU process; the rest) from `ps`, and
// the page's JS heap, and prints a row.
//
// The bound: the renderer and GPU process together may grow by at most
// SOAK_LIMIT_MB (default 100) over the 450 Runs after the first 50 (the
// caches and the browser's own start-up are in by then), scaled to the Runs
// measured, with a floor of SOAK_FLOOR_MB (default 25: resident memory moves
// by some megabytes from one sample to the next whatever the page does). A
// benchmark, not a timed test: it prints its figures and exits non-zero
// when the bound is broken, so CI can run its short form (`SOAK_RUNS=100`).
//
// Usage: node bench-soak.mjs (SOAK_RUNS=500, SOAK_EVERY=50; the built
// site in dist/, or GPU_PUZZLES_DIST).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT, serve, launch, PuzzlePage, pasteIntoEditor } from "./harness.mjs";
import { editSuffix } from "./bench-page.mjs";

const RUNS = Number(process.env.SOAK_RUNS || 500);
const EVERY = Number(process.env.SOAK_EVERY || 50);
const LIMIT_MB = Number(process.env.SOAK_LIMIT_MB || 100);
const FLOOR_MB = Number(process.env.SOAK_FLOOR_MB || 25);
/** Ten puzzles of six chapters: maps, reductions, atomics, scans, tiles, rows. */
const PUZZLES = (process.env.SOAK_PUZZLES || "map,softmax,histogram,matmul,prefix-sum,dot-product,transpose,tree-reduction,layer-norm,conv-1d").split(",");

/** Resident memory (MB) of this browser's processes, by kind, from `ps`. */
function residentByKind(pids) {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,rss=,args="], { encoding: "utf8" }).trim().split("\n");
  const procs = rows.map((r) => {
    const m = r.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/);
    return { pid: Number(m[1]), ppid: Number(m[2]), rss: Number(m[3]) / 1024, args: m[4] };
  });
  // The browser's process tree: every descendant of the launched process.
  const mine = new Set(pids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of procs) if (!mine.has(p.pid) && mine.has(p.ppid)) { mine.add(p.pid); grew = true; }
  }
  const kinds = { renderer: 0, gpu: 0, other: 0 };
  for (const p of procs.filter((p) => mine.has(p.pid))) {
    const kind = p.args.includes("--type=renderer") ? "renderer" : p.args.includes("--type=gpu-process") ? "gpu" : "other";
    kinds[kind] += p.rss;
  }
  return kinds;
}

/** The browser's own process id: the Chromium whose parent is this Node process. */
function browserPids() {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" }).trim().split("\n");
  return rows.map((r) => r.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/)).filter((m) => Number(m[2]) === process.pid && /chrom/i.test(m[3])).map((m) => Number(m[1]));
}

const site = await serve();
// SOAK_GC=1: the page and the workers collect their garbage before each
// sample (V8's `gc()`), to tell what a collection would free from what is
// held.
const GC = process.env.SOAK_GC === "1";
// SOAK_STAY=N: N Runs on each puzzle before moving on (1: every Run moves),
// to tell what a Run keeps from what leaving a page keeps.
const STAY = Number(process.env.SOAK_STAY || 1);
// SOAK_RESTART=N: every N Runs the judge's worker is made to fail (an
// uncaught error in it, as a crash would), so the page replaces it at the
// next Run: memory that falls back then was the worker's.
const RESTART = Number(process.env.SOAK_RESTART || 0);
const browser = await launch({ extraArgs: GC ? ["--js-flags=--expose-gc"] : [] });
const pids = browserPids();
if (pids.length === 0) throw new Error("the launched Chromium was not found among this process's children");
const page = await browser.newPage();
const errors = [];
let runNumber = 0;
page.on("pageerror", (e) => {
  errors.push(e.message);
  if (errors.length <= 3) console.log(`page error at Run ${runNumber}: ${e.message}\n${(e.stack ?? "").split("\n").slice(0, 6).join("\n")}`);
});
page.on("console", (m) => {
  if (m.type() === "error" && errors.length < 3) console.log(`console error at Run ${runNumber}: ${m.text().slice(0, 800)}`);
});
// The page's own wasm memory (the views' module shares it), from the
// event Trunk's start-up script sends with the wasm's exports.
await page.addInitScript(() => addEventListener("TrunkApplicationStarted", (e) => { window.__pageWasmMemory = e.detail.wasm.memory; }));
const p = new PuzzlePage(page);
await p.open(site.url(`?puzzle=${PUZZLES[0]}`));
const references = Object.fromEntries(PUZZLES.map((s) => [s, fs.readFileSync(path.join(ROOT, "shaders", `${s}.wgsl`), "utf8")]));

const samples = [];
const sample = async (runs) => {
  if (GC) {
    // A full collection of the page (the JavaScript heap and Blink's DOM
    // heap together, as DevTools' button does; twice, so that what the
    // first one's finalizers let go is collected too), and V8's in each
    // worker.
    const gcCdp = await page.context().newCDPSession(page);
    await gcCdp.send("HeapProfiler.collectGarbage");
    await page.waitForTimeout(200);
    await gcCdp.send("HeapProfiler.collectGarbage");
    await gcCdp.detach();
    for (const w of page.workers()) await w.evaluate(() => self.gc?.()).catch(() => {});
  }
  // Let the page's and the workers' collectors run before reading.
  await page.waitForTimeout(1000);
  const m = residentByKind(pids);
  const heap = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0) / 2 ** 20;
  const pageWasm = await page.evaluate(() => window.__pageWasmMemory?.buffer.byteLength ?? 0) / 2 ** 20;
  // The wasm memory of each worker (the judge's, and its helper's), which
  // is part of the renderer's: a wasm memory grows and never shrinks.
  const wasm = [];
  for (const w of page.workers()) {
    const bytes = await w.evaluate(() => self.judgeWasmMemory?.buffer.byteLength ?? 0).catch(() => 0);
    if (bytes > 0) wasm.push(bytes / 2 ** 20);
  }
  // The page's live DOM nodes and JavaScript event listeners (Blink's
  // counters): a page left behind and kept alive shows here first.
  const cdp = await page.context().newCDPSession(page);
  const dom = await cdp.send("Memory.getDOMCounters");
  await cdp.detach();
  const row = { runs, ...m, heap, pageWasm, wasm, dom };
  samples.push(row);
  console.log(`${String(runs).padStart(5)} Runs  renderer ${m.renderer.toFixed(0).padStart(5)} MB  GPU process ${m.gpu.toFixed(0).padStart(4)} MB  other ${m.other.toFixed(0).padStart(4)} MB  page JS heap ${heap.toFixed(1).padStart(5)} MB  page wasm ${pageWasm.toFixed(0)} MB  workers' wasm ${wasm.map((x) => x.toFixed(0)).join(" + ") || "none"} MB  documents ${dom.documents} nodes ${dom.nodes} listeners ${dom.jsEventListeners}`);
};

const started = Date.now();
let failed = 0;
for (let k = 0; k < RUNS; k++) {
  runNumber = k + 1;
  const slug = PUZZLES[Math.floor(k / STAY) % PUZZLES.length];
  // Client-side navigation, as the list's links do it.
  await page.evaluate((q) => {
    history.pushState(null, "", q);
    dispatchEvent(new PopStateEvent("popstate"));
  }, `?puzzle=${slug}`);
  // Handles are disposed, locators hold none: a handle kept by the script
  // keeps its element, and with it the whole page it was on, alive.
  await (await page.waitForFunction((s) => document.querySelector('[data-testid="editor"] .cm-content') && location.search.includes(s), slug)).dispose();
  await page.locator('[data-testid="verdict"]').waitFor();
  await page.evaluate(pasteIntoEditor, references[slug] + editSuffix(k));
  const verdict = await p.run({ timeout: 300_000 });
  if (RESTART && (k + 1) % RESTART === 0) {
    for (const w of page.workers()) await w.evaluate(() => { if (self.judgeWasmMemory) setTimeout(() => { throw new Error("soak: recycle"); }); }).catch(() => {});
  }
  if (verdict !== "passed") failed++;
  if ((k + 1) % EVERY === 0 || k === 0) await sample(k + 1);
}
const seconds = (Date.now() - started) / 1000;
await browser.close();
site.server.close();

// Growth of the renderer and GPU process together after the first EVERY
// Runs (the first sample after those: caches and the browser's own start
// are in by then), against the bound scaled to the Runs after it.
const base = samples.find((s) => s.runs >= EVERY) ?? samples[0];
const last = samples.at(-1);
const total = (s) => s.renderer + s.gpu;
const growth = total(last) - total(base);
const allowed = Math.max(FLOOR_MB, (LIMIT_MB * (last.runs - base.runs)) / 450);
console.log(`soak: ${RUNS} Runs over ${PUZZLES.length} puzzles in ${seconds.toFixed(0)} s (${(seconds / RUNS).toFixed(2)} s a Run), ${failed} not passed, ${errors.length} page errors`);
console.log(`soak: renderer + GPU process grew ${growth.toFixed(0)} MB from ${base.runs} to ${last.runs} Runs (bound ${allowed.toFixed(0)} MB)`);
if (failed > 0 || errors.length > 0 || growth > allowed) {
  console.error(`soak: FAILED${failed ? `, ${failed} Runs did not pass` : ""}${errors.length ? `, page errors: ${errors.slice(0, 3).join("; ")}` : ""}${growth > allowed ? ", memory grew past the bound" : ""}`);
  process.exit(1);
}
