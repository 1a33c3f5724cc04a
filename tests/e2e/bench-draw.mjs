// The pictures' benchmark (issue 83): the time the page takes to draw an
// image of 1024 × 1024, and the rate at which it plays the frames of a
// 256 × 256 grid. Run by scripts/bench-draw.sh, which builds the site from a
// puzzle set of its own (one puzzle with those two cases: no puzzle of the
// course shows one that large).
//
// Figures, each the page's own (web/src/images.rs, `timed`): the root
// element's data-image-model-ms (an image's view model from its values),
// data-image-draw-ms (its pixels put on the canvas) and data-frame-ms (one
// played frame, both), read after every change by a MutationObserver. The
// play rate counts the frames shown per second of wall time while the
// player plays (its timer asks for 30 a second). The targets (an image of
// 1024 × 1024 in at most 50 ms, an animation of 256 × 256 at 30 frames a
// second or more) are printed beside the figures and not asserted: a
// benchmark, not a timed test.
//
// Usage: node bench-draw.mjs (GPU_PUZZLES_DIST: the site built from the
// benchmark's set; GPU_PUZZLES_ADAPTER=hardware on a machine with a GPU).
import fs from "node:fs";
import { serve, launch, openPage, ROOT, HARDWARE } from "./harness.mjs";

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const fmt = (xs) => `median ${median(xs).toFixed(2)} ms, min ${Math.min(...xs).toFixed(2)}, max ${Math.max(...xs).toFixed(2)} (${xs.length})`;

const server = await serve();
const browser = await launch();
try {
  const { page, p, errors } = await openPage(browser);
  await page.addInitScript(() => {
    // Every figure the page writes on its root element, in order.
    window.__figures = { "image-model": [], "image-draw": [], frame: [] };
    // Records come in batches after the page's synchronous work, so each
    // value is read from the next record's old value (the attribute's
    // current value for the last one).
    new MutationObserver((records) => {
      records.forEach((r, k) => {
        const what = r.attributeName.replace(/^data-/, "").replace(/-ms$/, "");
        if (!(what in window.__figures)) return;
        const later = records.slice(k + 1).find((q) => q.attributeName === r.attributeName);
        const value = later ? later.oldValue : document.documentElement.getAttribute(r.attributeName);
        const [ms, pixels] = value.split(" ").map(Number);
        window.__figures[what].push({ ms, pixels });
      });
    }).observe(document, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ["data-image-model-ms", "data-image-draw-ms", "data-frame-ms"] });
  });
  await p.open(server.url("?puzzle=draw"));
  const adapter = await page.evaluate(async () => {
    const a = await navigator.gpu?.requestAdapter();
    return a ? `${a.info?.vendor || "?"} ${a.info?.architecture || ""} ${a.info?.description || ""}`.trim() : "no WebGPU adapter";
  });
  console.log(`Chromium ${browser.version()}, ${HARDWARE ? "hardware" : "software"} adapter: ${adapter}`);
  await p.setCode(fs.readFileSync(`${ROOT}/shaders/jacobi.wgsl`, "utf8"));
  const status = await p.run({ timeout: 600_000 });
  if (status !== "passed") throw new Error(`the benchmark's Run did not pass: ${status}`);
  // Case 1's four images of each buffer are drawn once the results are.
  await p.testid("case-1").locator("canvas").first().waitFor();
  await page.waitForTimeout(500);
  const drawn = await page.evaluate(() => window.__figures);
  // Only the figures of the images of 1024 × 1024 (case 1; the others are smaller).
  for (const what of ["image-model", "image-draw"]) drawn[what] = drawn[what].filter((f) => f.pixels === 1024 * 1024).map((f) => f.ms);
  const sides = await p.testid("case-1").locator("canvas").evaluateAll((cs) => cs.map((c) => `${c.width}×${c.height}`));
  const big = sides.filter((s) => s === "1024×1024").length;
  console.log(`\nImages of 1024 × 1024 in case 1: ${big} canvases (${sides.length} in all)`);
  console.log(`  view model: ${fmt(drawn["image-model"])}`);
  console.log(`  canvas:     ${fmt(drawn["image-draw"])}`);
  console.log(`  one image, model and canvas (medians): ${(median(drawn["image-model"]) + median(drawn["image-draw"])).toFixed(2)} ms (target: at most 50 ms)`);

  // Case 2: 240 steps of 256 × 256, played through three times.
  await page.evaluate(() => { window.__figures.frame = []; });
  await p.testid("play-case-2").click();
  const frames = p.testid("player-frames-2");
  await frames.waitFor({ timeout: 600_000 });
  const count = Number(await frames.getAttribute("data-frames"));
  const rates = [];
  for (let play = 0; play < 3; play++) {
    // The player starts on its own after loading; later plays from frame 0.
    if (play > 0) {
      await p.testid("player-slider-2").fill("0");
      await p.testid("player-toggle-2").click();
    }
    const started = Date.now();
    await page.waitForFunction((last) => document.querySelector('[data-testid="player-frames-2"]').dataset.frame === String(last), count - 1, { timeout: 120_000, polling: 5 });
    const seconds = (Date.now() - started) / 1000;
    rates.push((count - 1) / seconds);
  }
  const played = (await page.evaluate(() => window.__figures.frame)).map((f) => f.ms);
  console.log(`\nPlaying ${count} frames of 256 × 256 (${await p.testid("player-rate-2").innerText()})`);
  console.log(`  one frame, model and canvas: ${fmt(played)}; at most ${(1000 / median(played)).toFixed(0)} frames a second by that median`);
  console.log(`  frames shown a second over three plays: ${rates.map((r) => r.toFixed(1)).join(", ")} (the timer asks for 30; target: at least 30)`);
  if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
} finally {
  await browser.close();
  server.server.close();
}
