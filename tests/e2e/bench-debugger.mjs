// Benchmarks of the CPU interpreter in the page (not tests): a Run of
// Matrix Multiply judged by emulation in a browser without WebGPU, and the
// time the debugger takes to step and redraw 256 invocations. Prints
// figures; adds them to target/bench/debugger.json.
import fs from "node:fs";
import path from "node:path";
import { ROOT, serve, launch, PuzzlePage } from "./harness.mjs";

const RUNS = Number(process.env.BENCH_RUNS || 8);
const STEPS = 60;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const results = { date: new Date().toISOString() };

const site = await serve();
const browser = await launch({ webgpu: false });
const page = await browser.newPage();
await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "gpu", { get: () => undefined, configurable: true }));
const p = new PuzzlePage(page);

// 1. Matrix Multiply judged on the CPU: Run pressed to results judged
// (performance marks), every ordinary case and the three random cases of
// seed 1, each under three schedules.
await p.open(site.url("?puzzle=matmul&seed=1"));
await p.setCode(fs.readFileSync(path.join(ROOT, "shaders/matmul.wgsl"), "utf8"));
const emulated = [];
for (let i = 0; i < RUNS; i++) {
  await page.evaluate(() => performance.clearMarks());
  if ((await p.run()) !== "passed") throw new Error("the reference did not pass emulated");
  emulated.push(await page.evaluate(() => performance.getEntriesByName("run-judged")[0].startTime - performance.getEntriesByName("run-start")[0].startTime));
}
const cases = await page.locator('[data-testid^="case-"]').count();
results.matmulEmulated = { runs: RUNS, medianMs: median(emulated), cases, randomCases: 3, schedules: 3, targetMs: 200 };
console.log(`Matrix Multiply judged on the CPU (no WebGPU): ${median(emulated).toFixed(1)} ms median of ${RUNS} Runs, Run pressed to results judged (${cases} cases and 3 random ones, each under 3 schedules; the target, ≤ 200 ms, is for the ordinary cases under one)`);

// 2. One debugger step of a 256-invocation workgroup (Block Sum, case 2).
await p.open(site.url("?puzzle=block-sum"));
await p.setCode(fs.readFileSync(path.join(ROOT, "shaders/block-sum.wgsl"), "utf8"));
await p.testid("step-case-2").click();
await p.testid("debugger").waitFor();
await p.testid("debugger-invocations").locator("button").first().waitFor();
const cells = await p.testid("debugger-invocations").locator("button").count();
const steps = await page.evaluate(async (n) => {
  // Click to the DOM updated and laid out: the step runs in the judge's
  // worker, so this waits for the header's step count to change (the
  // snapshot has arrived and Leptos has applied it), then reads offsetHeight
  // to force style and layout. Painting follows in the same frame.
  const header = document.querySelector('[data-testid="debugger"] .where');
  const changed = (before) => new Promise((resolve) => {
    const seen = new MutationObserver(() => { if (header.textContent !== before) { seen.disconnect(); resolve(); } });
    seen.observe(header, { childList: true, characterData: true, subtree: true });
  });
  const times = [];
  for (let i = 0; i < n; i++) {
    const button = document.querySelector('[data-testid="debugger-step"]');
    if (button.disabled) {
      const before = header.textContent;
      document.querySelector('[data-testid="debugger-restart"]').click();
      await changed(before);
    }
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const before = header.textContent;
    const t0 = performance.now();
    button.click();
    await changed(before);
    void document.body.offsetHeight;
    times.push(performance.now() - t0);
  }
  return times;
}, STEPS);
results.debuggerStep = { invocations: cells, steps: STEPS, medianMs: median(steps), maxMs: Math.max(...steps), targetMs: 1000 / 60 };
console.log(`Debugger step of ${cells} invocations, click to the page updated and laid out: ${median(steps).toFixed(1)} ms median of ${STEPS}, ${Math.max(...steps).toFixed(1)} ms at most (target: within a frame, 16.7 ms)`);

await browser.close();
site.server.close();
fs.mkdirSync(path.join(ROOT, "target/bench"), { recursive: true });
fs.writeFileSync(path.join(ROOT, "target/bench/debugger.json"), JSON.stringify(results, null, 2));
