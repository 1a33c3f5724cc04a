// Run latency in Firefox ESR (its WebGPU: wgpu on lavapipe), measured as
// bench.mjs measures Chromium's: the page's first Run, then Runs of
// unchanged code with heat maps shown and hidden, against the same
// hand-written WebGPU baseline run in the same Firefox session (the in-page
// code is bench-page.mjs, shared by both). A benchmark, not a test: it
// prints a table and writes target/bench/firefox.json.
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import puppeteer from "puppeteer-core";
import { ROOT, serve, pasteIntoEditor } from "./harness.mjs";
import { SETTLE_MS, FRAME_MS, timePageRun, baselineRuns } from "./bench-page.mjs";

const RUNS = Number(process.env.BENCH_RUNS || 20);
const FIREFOX = process.env.FIREFOX || "/usr/bin/firefox-esr";
const CLI = process.env.GPU_PUZZLES_BIN || path.join(ROOT, "target/release/gpu-puzzles");
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const exported = JSON.parse(execFileSync(CLI, ["export", "--root", ROOT], { maxBuffer: 1 << 28 }).toString());
const only = process.env.BENCH_PUZZLES?.split(",");
// As in bench.mjs: the puzzles the baseline can run (storage buffers only,
// `main` once), less those whose shader needs subgroups, which Firefox's
// WebGPU lacks: the page emulates those on the CPU, so they compare nothing.
const comparable = exported.puzzles.filter((q) => q.entryPoints.length === 1 && q.cases.every((c) => c.uniforms.length === 0 && !c.performance) && !/\benable subgroups;/.test(q.solution) && (!only || only.includes(q.slug)));

const site = await serve();
const browser = await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true, extraPrefsFirefox: { "dom.webgpu.enabled": true, "gfx.webgpu.ignore-blocklist": true } });
const results = { date: new Date().toISOString(), browser: await browser.version(), runs: RUNS, perPuzzle: [] };
console.log(`Run latency in ${results.browser} (ms), as bench.mjs measures Chromium: first Run, median of ${RUNS} Runs of unchanged code (heat maps shown, hidden, hidden to judged), and the hand-written WebGPU baseline in this Firefox (read back, painted). ${comparable.length} of ${exported.puzzles.length} puzzles.`);
const page = await browser.newPage();
for (const puzzle of comparable) {
  await page.goto(site.url(`?puzzle=${puzzle.slug}&seed=1`));
  await page.waitForSelector('[data-testid="editor"] .cm-content');
  await page.evaluate(pasteIntoEditor, puzzle.solution);
  const timeRun = () => page.evaluate(timePageRun, { settle: SETTLE_MS, frame: FRAME_MS });
  let first = null;
  const measure = async () => {
    const xs = [], js = [];
    const cold = await timeRun();
    first ??= cold;
    for (let i = 0; i < RUNS; i++) { const t = await timeRun(); xs.push(t.rendered); js.push(t.judged); }
    return [median(xs), median(js)];
  };
  const setMaps = (on) => page.$eval('[data-testid="heatmaps-toggle"]', (el, on) => { if (el.checked !== on) el.click(); }, on);
  const [withMaps] = await measure();
  await setMaps(false);
  const [plain, plainJudged] = await measure();
  await setMaps(true);
  const base = await page.evaluate(baselineRuns, { puzzle, runs: RUNS, settle: SETTLE_MS, frame: FRAME_MS });
  const row = { puzzle: puzzle.slug, firstRunMs: first.rendered, withHeatMapsMs: withMaps, plainMs: plain, plainJudgedMs: plainJudged, baselineMs: base.judged, baselinePaintedMs: base.painted, ratioFirst: first.rendered / base.painted, ratioPlain: plain / base.painted, ratioPlainJudged: plainJudged / base.judged, ratioWithHeatMaps: withMaps / base.painted };
  results.perPuzzle.push(row);
  console.log(`  ${puzzle.slug.padEnd(14)} first ${first.rendered.toFixed(1).padStart(7)}  again ${withMaps.toFixed(1).padStart(7)} ${plain.toFixed(1).padStart(7)} ${plainJudged.toFixed(1).padStart(7)}  baseline ${base.judged.toFixed(1).padStart(6)} ${base.painted.toFixed(1).padStart(6)}   first/baseline ${row.ratioFirst.toFixed(2)}×, again (maps hidden) ${row.ratioPlain.toFixed(2)}× (judged ${row.ratioPlainJudged.toFixed(2)}×), maps shown ${row.ratioWithHeatMaps.toFixed(2)}×`);
}
const m = (k) => median(results.perPuzzle.map((r) => r[k]));
Object.assign(results, { medianRatioFirst: m("ratioFirst"), medianRatioPlain: m("ratioPlain"), medianRatioPlainJudged: m("ratioPlainJudged"), medianRatioWithHeatMaps: m("ratioWithHeatMaps"), target: 1.25 });
console.log(`  median ratio: first Run ${results.medianRatioFirst.toFixed(2)}×; Runs of unchanged code: maps hidden ${results.medianRatioPlain.toFixed(2)}× (judged only ${results.medianRatioPlainJudged.toFixed(2)}×), maps shown ${results.medianRatioWithHeatMaps.toFixed(2)}× (targets, as in Chromium: 1.25× maps hidden, 2× maps shown)`);
await browser.close();
site.server.close();
fs.mkdirSync(path.join(ROOT, "target/bench"), { recursive: true });
fs.writeFileSync(path.join(ROOT, "target/bench/firefox.json"), JSON.stringify(results, null, 2));
console.log("wrote target/bench/firefox.json");
