// The site's benchmarks (not tests): download size, start-up, run latency
// against a hand-written WebGPU baseline in the same browser session, and the
// native check's wall time. Prints a table and writes target/bench/results.json.
// Run through scripts/bench.sh, which builds what it needs first.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { execFileSync } from "node:child_process";
import { ROOT, DIST, serve, launch, PuzzlePage } from "./harness.mjs";
import { SETTLE_MS, FRAME_MS, timePageRun, baselineRuns, editSuffix, freshSuffixes } from "./bench-page.mjs";

const LOADS = Number(process.env.BENCH_LOADS || 10);
const RUNS = Number(process.env.BENCH_RUNS || 20);
// Runs after an edit per puzzle (each compiles everything again, so fewer).
const EDITS = Number(process.env.BENCH_EDITS || 5);
// The pause before every timed Run, page and baseline alike, in
// milliseconds (SETTLE_MS, from bench-page.mjs): at least three 60 Hz
// frames, so the last Run's frame is drawn, plus up to one more at random.
// A Run's "painted" waits for the next frame, so its time depends on where
// in the frame it started; a fixed pause would start every Run at the same
// point, and a side whose work ends just past a frame boundary would lose a
// whole frame every time. Spread over the frame, both sides pay the frame's
// wait alike.
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const kb = (n) => (n / 1024).toFixed(1);
const results = { date: new Date().toISOString(), machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30) } };

// 1. Download size.
const files = [];
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else {
      const raw = fs.readFileSync(p);
      files.push({ file: path.relative(DIST, p), raw: raw.length, gzip: zlib.gzipSync(raw, { level: 9 }).length });
    }
  }
};
walk(DIST);
// Files under lazy/ are fetched on demand (the Vim bindings, when switched
// on; comforts.test.mjs checks that a first visit does not fetch them), and
// so are our solutions (solutions/, when a student asks to see one) and the
// capstone's model (models/, when "Generate" opens). The
// judge's worker (worker-loader.js, gpu-puzzles-worker*) is fetched once the editor is ready
// (comforts.test.mjs checks that too), so it is reported on its own.
// Each puzzle's page data (puzzle-data/) is fetched when that puzzle is
// opened: a first visit to a puzzle's page fetches one, so the first visit
// counts the largest of them (gzip), and the rest are on demand.
const onDemand = (f) => ["lazy", "solutions", "models", "puzzle-data"].some((d) => f.file.startsWith(`${d}${path.sep}`));
const isWorker = (f) => f.file.startsWith("gpu-puzzles-worker") || f.file === "worker-loader.js";
// The views' module, split off the page's wasm (web/src/deferred.rs): the
// cases' grids, the debugger and the capstone, fetched once the editor is
// ready, like the worker (comforts.test.mjs checks that too).
const isViews = (f) => /^views-[0-9a-f]{16}\.wasm$/.test(f.file) || /^__wasm_split-[0-9a-f]{16}\.js$/.test(f.file);
const sum = (fs) => fs.reduce((a, f) => ({ raw: a.raw + f.raw, gzip: a.gzip + f.gzip }), { raw: 0, gzip: 0 });
const puzzleData = files.filter((f) => f.file.startsWith(`puzzle-data${path.sep}`) && f.file.endsWith(".postcard"));
if (puzzleData.length === 0) throw new Error(`no puzzle-data/*.postcard in ${DIST}: the page could open no puzzle`);
const largestPuzzle = puzzleData.reduce((a, f) => (f.gzip > a.gzip ? f : a));
if (!files.some(isViews)) throw new Error(`no views-HASH.wasm in ${DIST}: the page's wasm was not split (scripts/split/wasm-bindgen)`);
const firstVisit = sum([...files.filter((f) => !onDemand(f) && !isWorker(f) && !isViews(f)), largestPuzzle]);
const worker = sum(files.filter(isWorker));
const views = sum(files.filter(isViews));
const later = sum(files.filter((f) => onDemand(f) && f !== largestPuzzle));
results.size = { files, firstVisit, largestPuzzle: largestPuzzle.file, worker, views, onDemand: later, targetGzipKB: 400 };
console.log("\nDownload size of dist/ (a first visit downloads every file but the worker's and the views' module, fetched once the editor is ready, and those fetched on demand, but for one puzzle's data: the largest, counted in the first visit)");
for (const f of files) console.log(`  ${f.file.padEnd(62)} ${kb(f.raw).padStart(8)} KB  ${kb(f.gzip).padStart(8)} KB gzip${f === largestPuzzle ? "   (the largest puzzle's data: in the first visit)" : onDemand(f) ? "   (on demand)" : isWorker(f) || isViews(f) ? "   (after editor ready)" : ""}`);
console.log(`  ${"first visit, to editor ready".padEnd(62)} ${kb(firstVisit.raw).padStart(8)} KB  ${kb(firstVisit.gzip).padStart(8)} KB gzip   (target ≤ 400 KB gzip; with ${largestPuzzle.file})`);
console.log(`  ${"the judge's worker, after editor ready".padEnd(62)} ${kb(worker.raw).padStart(8)} KB  ${kb(worker.gzip).padStart(8)} KB gzip`);
console.log(`  ${"the views' module, after editor ready".padEnd(62)} ${kb(views.raw).padStart(8)} KB  ${kb(views.gzip).padStart(8)} KB gzip`);
console.log(`  ${"fetched on demand".padEnd(62)} ${kb(later.raw).padStart(8)} KB  ${kb(later.gzip).padStart(8)} KB gzip`);

const site = await serve();
const browser = await launch();
results.browser = browser.version();

// 2. Start-up: navigation start to editor ready, to adapter ready, and to
// the views' module being in (the cases' grids shown).
const editor = [], adapter = [], viewsReady = [];
for (let i = 0; i < LOADS; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(site.url("?puzzle=map"));
  const marks = ["editor-ready", "adapter-ready", "views-ready"];
  await page.waitForFunction((marks) => marks.every((m) => performance.getEntriesByName(m).length), marks, { timeout: 30_000 });
  const [e, a, v] = await page.evaluate((marks) => marks.map((n) => performance.getEntriesByName(n)[0].startTime), marks);
  editor.push(e);
  adapter.push(a);
  viewsReady.push(v);
  await context.close();
}
results.startup = { loads: LOADS, editorReadyMs: median(editor), adapterReadyMs: median(adapter), viewsReadyMs: median(viewsReady), targetMs: 1000 };
console.log(`\nStart-up, median of ${LOADS} loads: editor ready ${median(editor).toFixed(0)} ms, adapter ready ${median(adapter).toFixed(0)} ms, the views' module in ${median(viewsReady).toFixed(0)} ms (target ≤ 1000 ms)`);

// 3. Run latency: click Run to every result rendered, against a minimal
// hand-written WebGPU harness doing the same work for every case.
// GPU_PUZZLES_BIN names another build of the CLI (scripts/bench.sh builds the release one).
const CLI = process.env.GPU_PUZZLES_BIN || path.join(ROOT, "target/release/gpu-puzzles");
const exported = JSON.parse(execFileSync(CLI, ["export", "--root", ROOT], { maxBuffer: 1 << 28 }).toString());
const page = await browser.newPage();
const p = new PuzzlePage(page);
const latency = [];
console.log(`\nRun latency (ms): the page's first Run on a fresh page (nothing compiled yet), then the median of ${RUNS} Runs of the same code (the device's pipeline cache holds every shader), with heat maps shown and hidden (to results rendered, and to results judged; every case but performance ones runs instrumented either way), and the hand-written WebGPU baseline, to its results read back and to them painted (written into the page, then the next frame). Ratios compare like with like: judged with read back, rendered with painted. The page opens with a fixed \`seed\`, so its three random cases are the same on every Run; the baseline runs the written cases only, so the page does more work than it.`);
// The baseline binds storage buffers only and dispatches `main` once, so the
// comparison covers the puzzles that need nothing more (the classic ones and
// a few later ones), not those with uniforms, several entry points or
// performance cases.
// BENCH_PUZZLES=map,zip narrows the comparison to those puzzles.
const only = process.env.BENCH_PUZZLES?.split(",");
const comparable = exported.puzzles.filter((q) => q.entryPoints.length === 1 && q.cases.every((c) => c.uniforms.length === 0 && !c.performance) && (!only || only.includes(q.slug)));
console.log(`(${comparable.length} of ${exported.puzzles.length} puzzles)`);
for (const puzzle of comparable) {
  await p.open(site.url(`?puzzle=${puzzle.slug}&seed=1`));
  await p.setCode(puzzle.solution);
  // Every timed Run, the page's and the baseline's, starts from a settled
  // page (SETTLE_MS with no frame asked for): timed back to back, each would
  // start while the last one's frame is still drawn, and wait for it.
  const timeRun = () => page.evaluate(timePageRun, { settle: SETTLE_MS, frame: FRAME_MS });
  let first = null;
  const measure = async () => {
    const xs = [], js = [];
    const cold = await timeRun();
    first ??= cold;
    for (let i = 0; i < RUNS; i++) { const t = await timeRun(); xs.push(t.rendered); js.push(t.judged); }
    return [median(xs), median(js)];
  };
  const [withMaps] = await measure();
  await p.testid("heatmaps-toggle").uncheck();
  const [plain, plainJudged] = await measure();
  await p.testid("heatmaps-toggle").check();
  const base = await page.evaluate(baselineRuns, { puzzle, runs: RUNS, settle: SETTLE_MS, frame: FRAME_MS });
  const baseline = base.judged, painted = base.painted;
  // A Run after an edit, the Run a student makes: the code gains a function
  // no earlier Run had (editSuffix; so nothing is cached: the page
  // instruments and compiles every case's shader again, and runs the order
  // check again),
  // heat maps shown as they are by default; against the baseline's Runs of
  // new code (`freshSuffixes`), which compile every case's shader again too.
  const edited = [], editedJudged = [], phases = [[], [], [], [], [], [], [], [], [], []];
  for (let i = 0; i < EDITS; i++) {
    await p.setCode(puzzle.solution + editSuffix(i));
    const t = await timeRun();
    edited.push(t.rendered);
    editedJudged.push(t.judged);
    // Where the worker spent that Run: starting the cases (instrumenting,
    // compiling, submitting), read-backs and judging, the CPU checks, the
    // performance cases, then of the first: plain compiles, the
    // instrumentation pass, instrumented compiles, the interpreter's checks
    // of the cases; then the order checks the helper worker made; last,
    // preparing the cases (substituting and parsing the text once per
    // configuration) (`data-judge-phases`, set by the page).
    const noted = await page.evaluate(() => document.documentElement.dataset.judgePhases);
    if (!noted) throw new Error(`${puzzle.slug}: the page noted no phases for a Run after an edit`);
    noted.split(",").map(Number).forEach((ms, k) => phases[k].push(ms));
  }
  const [submitMs, readBackMs, checksMs, , plainCompileMs, instrumentMs, instrumentedCompileMs, cpuChecksMs, helperChecks, prepareMs] = phases.map(median);
  const fresh = await page.evaluate(baselineRuns, { puzzle, runs: EDITS, settle: SETTLE_MS, frame: FRAME_MS, suffixes: freshSuffixes(EDITS) });
  const edit = median(edited), editJudged = median(editedJudged);
  latency.push({ puzzle: puzzle.slug, cases: puzzle.cases.length, firstRunMs: first.rendered, firstRunJudgedMs: first.judged, withHeatMapsMs: withMaps, plainMs: plain, plainJudgedMs: plainJudged, baselineMs: baseline, baselinePaintedMs: painted, editMs: edit, editJudgedMs: editJudged, baselineFreshMs: fresh.judged, baselineFreshPaintedMs: fresh.painted, ratioFirst: first.rendered / painted, ratioPlain: plain / painted, ratioPlainJudged: plainJudged / baseline, ratioWithHeatMaps: withMaps / painted, ratioEdit: edit / fresh.painted, ratioEditJudged: editJudged / fresh.judged, editPhases: { prepareMs, submitMs, readBackMs, checksMs, plainCompileMs, instrumentMs, instrumentedCompileMs, cpuChecksMs, helperChecks } });
  console.log(`  ${puzzle.slug.padEnd(14)} first ${first.rendered.toFixed(1).padStart(7)}  again ${withMaps.toFixed(1).padStart(7)} ${plain.toFixed(1).padStart(7)} ${plainJudged.toFixed(1).padStart(7)}  baseline ${baseline.toFixed(1).padStart(6)} ${painted.toFixed(1).padStart(6)}   first/baseline ${(first.rendered / painted).toFixed(2)}×, again (maps hidden) ${(plain / painted).toFixed(2)}× (judged ${(plainJudged / baseline).toFixed(2)}×), maps shown ${(withMaps / painted).toFixed(2)}×`);
  console.log(`  ${"".padEnd(14)} after an edit ${edit.toFixed(1).padStart(7)} (judged ${editJudged.toFixed(1)})  baseline of new code ${fresh.painted.toFixed(1).padStart(6)} (read back ${fresh.judged.toFixed(1)})   ${(edit / fresh.painted).toFixed(2)}× (judged ${(editJudged / fresh.judged).toFixed(2)}×)`);
  console.log(`  ${"".padEnd(14)} in the worker: preparing the cases ${prepareMs.toFixed(1)}, starting the cases ${submitMs.toFixed(1)} (plain compiles ${plainCompileMs.toFixed(1)}, the interpreter's checks ${cpuChecksMs.toFixed(1)}, instrumentation pass ${instrumentMs.toFixed(1)}, instrumented compiles ${instrumentedCompileMs.toFixed(1)}), read-backs ${readBackMs.toFixed(1)}, CPU checks ${checksMs.toFixed(1)} ms (${helperChecks} order checks by the helper worker)`);
}
const worst = latency.reduce((w, l) => (l.ratioEdit > w.ratioEdit ? l : w), latency[0]);
results.runLatency = { runs: RUNS, edits: EDITS, perPuzzle: latency, medianRatioFirst: median(latency.map((l) => l.ratioFirst)), medianRatioPlain: median(latency.map((l) => l.ratioPlain)), medianRatioPlainJudged: median(latency.map((l) => l.ratioPlainJudged)), medianRatioWithHeatMaps: median(latency.map((l) => l.ratioWithHeatMaps)), medianRatioEdit: median(latency.map((l) => l.ratioEdit)), medianRatioEditJudged: median(latency.map((l) => l.ratioEditJudged)), worstEdit: { puzzle: worst.puzzle, ratio: worst.ratioEdit }, target: 1.25, targetEdit: { median: 2, worst: 3 } };
console.log(`  median ratio: first Run ${results.runLatency.medianRatioFirst.toFixed(2)}×; Runs of unchanged code: maps hidden ${results.runLatency.medianRatioPlain.toFixed(2)}× (judged only ${results.runLatency.medianRatioPlainJudged.toFixed(2)}×), maps shown ${results.runLatency.medianRatioWithHeatMaps.toFixed(2)}× (targets: 1.25× maps hidden, 2× maps shown)`);
console.log(`  Runs after an edit against the baseline's Runs of new code: median ${results.runLatency.medianRatioEdit.toFixed(2)}× (judged ${results.runLatency.medianRatioEditJudged.toFixed(2)}×), worst ${worst.ratioEdit.toFixed(2)}× (${worst.puzzle}) (targets: median ≤ 2×, none over 3×)`);
await browser.close();
site.server.close();

// 4. Native check of every puzzle (BENCH_NATIVE=0 leaves it out, to compare
// two builds of the site quickly).
const checks = [];
for (let i = 0; i < (process.env.BENCH_NATIVE === "0" ? 0 : 3); i++) {
  const t0 = performance.now();
  execFileSync(CLI, ["check", "--root", ROOT], { env: { ...process.env, WGPU_BACKEND: "vulkan", XDG_RUNTIME_DIR: "/tmp" } });
  checks.push(performance.now() - t0);
}
if (checks.length) {
  results.nativeCheck = { wallMs: median(checks), runs: checks.length, targetMs: 10_000 };
  console.log(`\nNative \`gpu-puzzles check\` of every puzzle (lavapipe where there is no GPU): ${(median(checks) / 1000).toFixed(2)} s median of 3 (target ≤ 10 s)`);
}

fs.mkdirSync(path.join(ROOT, "target/bench"), { recursive: true });
fs.writeFileSync(path.join(ROOT, "target/bench/results.json"), JSON.stringify(results, null, 2));
console.log("\nwrote target/bench/results.json");
