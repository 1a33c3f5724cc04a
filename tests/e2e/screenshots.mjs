// Takes the README's screenshots with headless Chromium: a solved puzzle, a
// failed one, a performance case, Histogram's racing starter, and the
// capstone writing text with one kernel the student's (RMS Norm solved first),
// Edge Detection's photograph with the wrong pixels of zero padding marked, and
// Reaction-Diffusion's steps played, and a tablet and a phone.
// Names of files as arguments take only those: node tests/e2e/screenshots.mjs generate.png Needs a built dist/: node tests/e2e/screenshots.mjs
import fs from "node:fs";
import path from "node:path";
import { devices } from "playwright-core";
import { ROOT, serve, launch, PuzzlePage, verdictAfter } from "./harness.mjs";

const out = path.join(ROOT, "docs/screenshots");
fs.mkdirSync(out, { recursive: true });
const site = await serve();
const browser = await launch();
try {
  const shots = [
    { file: "solved.png", slug: "matmul", code: fs.readFileSync(path.join(ROOT, "shaders/matmul.wgsl"), "utf8"), want: "passed", focus: "verdict" },
    { file: "failed.png", slug: "broadcast", code: fs.readFileSync(path.join(ROOT, "tests/gpu/solutions/broadcast--swapped-a-b.wgsl"), "utf8"), want: "failed", focus: "case-3" },
    { file: "performance.png", slug: "divergence", code: fs.readFileSync(path.join(ROOT, "shaders/divergence.wgsl"), "utf8"), want: "passed", focus: "case-6", timeComparisons: true },
    { file: "race.png", slug: "histogram", code: null, want: "failed", focus: "case-3" },
    { file: "dark.png", slug: "broadcast", code: fs.readFileSync(path.join(ROOT, "tests/gpu/solutions/broadcast--swapped-a-b.wgsl"), "utf8"), want: "failed", focus: "case-3", colorScheme: "dark" },
    { file: "photograph.png", slug: "edge-detection", code: fs.readFileSync(path.join(ROOT, "tests/gpu/solutions/edge-detection--zero-padding.wgsl"), "utf8"), want: "failed", focus: "case-1" },
    { file: "player.png", slug: "reaction-diffusion", code: fs.readFileSync(path.join(ROOT, "shaders/reaction-diffusion.wgsl"), "utf8"), want: "passed", focus: "player-2", play: { testid: "2", frame: "7" } },
    { file: "tablet.png", device: "iPad Mini landscape", slug: "gaussian-blur", code: fs.readFileSync(path.join(ROOT, "shaders/gaussian-blur.wgsl"), "utf8"), want: "passed", focus: "case-1" },
    { file: "phone.png", device: "iPhone 13", slug: "box-blur", code: fs.readFileSync(path.join(ROOT, "shaders/box-blur.wgsl"), "utf8"), want: "passed", focus: "verdict" },
    { file: "images.png", slug: "box-blur", code: fs.readFileSync(path.join(ROOT, "tests/gpu/solutions/box-blur--assumes-power-of-two.wgsl"), "utf8"), want: "failed", focus: "case-8", region: "image-difference-8" },
  ];
  const only = process.argv.slice(2);
  const wanted = (file) => only.length === 0 || only.includes(file);
  for (const s of shots.filter((s) => wanted(s.file))) {
    // A tablet or a phone: Playwright's descriptor (viewport, scale, touch).
    const { defaultBrowserType: _, ...device } = s.device ? devices[s.device] : { viewport: { width: 1400, height: 1000 } };
    const page = await browser.newPage({ ...device, colorScheme: s.colorScheme ?? "light" });
    const p = new PuzzlePage(page);
    await p.open(site.url(`?puzzle=${s.slug}`));
    if (s.code !== null) await p.setCode(s.code); // null: the starter as shipped
    const verdict = await p.run({ timeout: 240_000 });
    if (verdict !== s.want) throw new Error(`${s.slug}: expected ${s.want}, got ${verdict}`);
    // On a software adapter the comparison kernel is timed once asked.
    const ask = page.locator('[data-testid^="time-comparisons-"]');
    if (s.timeComparisons && (await ask.count())) {
      const before = await p.finishedRuns();
      await ask.first().click();
      await page.waitForFunction(verdictAfter, before, { timeout: 240_000 });
    }
    // The focused case's heat maps open, as a student opens them (only the
    // first failing case's come open with the results).
    const maps = page.locator(`[data-testid="${s.focus}"] .heatmap-details:not([open]) summary`);
    if (await maps.count()) await maps.click();
    // A case's steps played, stopped at a frame.
    if (s.play) {
      await page.locator(`[data-testid="play-case-${s.play.testid}"]`).click();
      await page.locator(`[data-testid="player-frames-${s.play.testid}"]`).waitFor({ timeout: 120_000 });
      await page.locator(`[data-testid="player-slider-${s.play.testid}"]`).fill(s.play.frame);
    }
    // A region of the named image opened, as a click on it opens one.
    if (s.region) await page.locator(`[data-testid="${s.region}"] canvas`).click({ position: { x: 40, y: 40 } });
    await page.locator(`[data-testid="${s.focus}"]`).evaluate((el) => el.scrollIntoView({ block: "start" }));
    await page.screenshot({ path: path.join(out, s.file), fullPage: false });
    console.log(`wrote docs/screenshots/${s.file}`);
    await page.close();
  }
  // The capstone, after RMS Norm was solved through the page.
  if (wanted("generate.png")) await capstone();
} finally {
  await browser.close();
  site.server.close();
}

async function capstone() {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const p = new PuzzlePage(page);
  await p.open(site.url("?puzzle=rms-norm"));
  await p.setCode(fs.readFileSync(path.join(ROOT, "shaders/rms-norm.wgsl"), "utf8"));
  if ((await p.run({ timeout: 240_000 })) !== "passed") throw new Error("rms-norm: the reference did not pass");
  await page.goto(site.url("?generate"));
  await page.locator('[data-testid="generate-count"]').fill("160");
  await page.locator('[data-testid="generate-button"]').click();
  await page.waitForFunction(() => ["done", "error"].includes(document.querySelector('[data-testid="generate-output"]')?.dataset.status), null, { timeout: 600_000 });
  if ((await page.locator('[data-testid="generate-output"]').getAttribute("data-status")) !== "done") throw new Error("the capstone did not finish");
  await page.screenshot({ path: path.join(out, "generate.png"), fullPage: true });
  console.log("wrote docs/screenshots/generate.png");
  await page.close();
}
