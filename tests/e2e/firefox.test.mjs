// The site in a second engine: Firefox ESR, whose WebGPU is built on wgpu and
// naga, headless on lavapipe, driven over WebDriver BiDi by puppeteer-core.
// Every puzzle is solved by its reference through the page once, and the
// journeys a student makes are walked once (a wrong solution's finding, a
// compile error's place, a performance case's figures, the debugger, code
// kept across a reload, a share link opened in a fresh profile). The whole
// suite runs in Chromium; this file runs what an engine can break.
// Expected values come from the puzzle data, never from a GPU run.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";
import { ROOT, serve, puzzleOrder, verdictAfter, pasteIntoEditor, printJourney, choosePrintWorkgroup, printLines, printLinesOf, heldSolutions, shownOutcome, unmetExpectation } from "./harness.mjs";

const FIREFOX = process.env.FIREFOX || "/usr/bin/firefox-esr";
/** Firefox ESR hides WebGPU behind these two preferences (either alone: no adapter). */
const WEBGPU_PREFS = { "dom.webgpu.enabled": true, "gfx.webgpu.ignore-blocklist": true };

const order = puzzleOrder();
const read = (...p) => fs.readFileSync(path.join(ROOT, ...p), "utf8");

let site, browser;
const started = Date.now();

before(async () => {
  if (!fs.existsSync(FIREFOX)) throw new Error(`no Firefox at ${FIREFOX}: install Debian's firefox-esr package (scripts/ensure-tools.sh does)`);
  site = await serve();
  browser = await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true, extraPrefsFirefox: WEBGPU_PREFS });
});
after(async () => {
  await browser?.close();
  site?.server.close();
  console.log(`Firefox: ${((Date.now() - started) / 1000).toFixed(1)} s for this file`);
});

const sel = (id) => `[data-testid="${id}"]`;

/** A puzzle page in `target` (the browser, or a fresh browser context), with the page's uncaught errors collected. */
async function open(target, query) {
  const page = await target.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(site.url(query));
  await page.waitForSelector(`${sel("editor")} .cm-content`);
  return { page, errors };
}

const code = (page) => page.$eval(`${sel("editor")} .cm-editor`, (el) => el.editorView.state.doc.toString());

/** Pastes `text` into the editor ([`pasteIntoEditor`]) and checks it is there. */
async function setCode(page, text) {
  await page.evaluate(pasteIntoEditor, text);
  assert.equal(await code(page), text, "the text is in the editor");
}

/**
 * Clicks the element with test id `id` as a student would, with the mouse,
 * once it is scrolled into view: puppeteer's click over BiDi scrolls and
 * clicks in one step, and in Firefox the click can land before the scroll
 * has settled, on nothing (a Run button below the first screen, under a
 * long statement, was clicked without effect).
 */
async function click(page, id) {
  await page.$eval(sel(id), (el) => el.scrollIntoView({ block: "center" }));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.click(sel(id));
}

/** Clicks Run and waits for this Run's verdict (the verdict's data-run counts finished Runs); returns its status. */
async function run(page, timeout = 180_000) {
  // The verdict is drawn by the views' module, fetched once the editor is ready.
  await page.waitForSelector(sel("verdict"), { timeout: 30_000 });
  const before = await page.$eval(sel("verdict"), (v) => Number(v.dataset.run));
  await click(page, "run-button");
  await page.waitForFunction(verdictAfter, { timeout }, before);
  return page.$eval(sel("verdict"), (v) => v.dataset.status);
}

const statuses = (page) => page.$$eval('[data-testid^="case-"]', (els) => els.map((e) => e.dataset.status));
const text = (page, id) => page.$eval(sel(id), (el) => el.innerText);

test("Firefox: the page finds WebGPU (wgpu on lavapipe)", async () => {
  const { page, errors } = await open(browser, "?puzzle=map");
  await page.waitForFunction(() => document.querySelector('[data-testid="gpu-status"]')?.textContent.startsWith("GPU:"), { timeout: 30_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

for (const slug of order) {
  test(`Firefox: ${slug}: the reference solution solves it through the page`, async () => {
    const { page, errors } = await open(browser, `?puzzle=${slug}`);
    assert.match(await code(page), /TODO/, "the editor starts with the starter");
    await setCode(page, read("shaders", `${slug}.wgsl`));
    const verdict = await run(page);
    const cases = await statuses(page);
    assert.equal(verdict, "passed", `cases: ${cases}`);
    // Hardware-only performance cases are omitted on a software adapter, and
    // performance cases when a Run is emulated (Firefox has no subgroups).
    assert.ok(cases.length >= 3 && cases.every((s) => s === "passed" || s === "omitted"), `cases: ${cases}`);
    assert.ok(cases.filter((s) => s === "passed").length >= 3, `cases: ${cases}`);
    const said = await text(page, "verdict");
    if (/\benable subgroups;/.test(read("shaders", `${slug}.wgsl`))) {
      assert.match(said, /Emulated/, "no subgroups in Firefox's WebGPU: judged on the CPU, and it says so");
    } else {
      assert.doesNotMatch(said, /Emulated/, "judged on Firefox's WebGPU");
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// Every held wrong solution, judged through the page in Firefox, must get the
// verdict and the named finding the native judge gives it (its `// expect:`
// line, checked on lavapipe by tests/gpu/puzzles.rs): Firefox compiles with
// naga, which accepts what Chromium's Tint refuses (a barrier in non-uniform
// control flow, issue 88), so here the judge's own rules are the only
// guard. One page per puzzle, one Run per file.
// The wrong ones, as held.test.mjs does in Chromium.
const held = heldSolutions().filter((h) => h.expect !== "passed");
// Where Firefox's Run names another finding than the native judge, with
// the same verdict: held to the verdict alone, and listed in the closing
// note of issue 88 until the judge names the same one.
const SAME_VERDICT_OTHER_FINDING = {
  // Emulated (Firefox has no subgroups): the interpreter at its default
  // 32 lanes sees no race in case 3 and names the result's dependence on
  // the subgroup size; the native judge, on lavapipe's smaller subgroups,
  // names the race. Both are memory errors in the same cases.
  "shuffle--no-barrier-before-reading-maxima.wgsl": "a subgroup-size dependence where natively a race",
};
for (const slug of [...new Set(held.map((h) => h.slug))]) {
  test(`Firefox: ${slug}: every held wrong solution gets the native judge's verdict`, async () => {
    const { page, errors } = await open(browser, `?puzzle=${slug}`);
    const unmet = [];
    for (const h of held.filter((h) => h.slug === slug)) {
      await setCode(page, h.source);
      await run(page);
      const other = SAME_VERDICT_OTHER_FINDING[h.file];
      const why = unmetExpectation(other ? { ...h, message: null } : h, await page.evaluate(shownOutcome));
      if (why) unmet.push(`${h.file}: ${why}`);
      else if (other) console.log(`Firefox: ${h.file}: the native verdict, with ${other}`);
    }
    assert.deepEqual(unmet, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("Firefox: a wrong solution fails with its finding, and a compile error is placed", async () => {
  const { page, errors } = await open(browser, "?puzzle=dot-product");
  await setCode(page, read("tests/gpu/solutions/dot-product--accumulates-into-one-element.wgsl"));
  assert.equal(await run(page), "failed");
  assert.match(await text(page, "verdict"), /lost update: `out\[0\]`/);
  // An unknown name at line 5: naga's message, at its line and column, marked in the editor.
  const lines = [
    "@group(0) @binding(0) var<storage, read> a: array<f32>;",
    "@group(0) @binding(1) var<storage, read_write> out: array<f32>;",
    "@compute @workgroup_size({{workgroupSize}})",
    "fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {",
    "    let n = vec3({{workgroupSize}}).x + nope;",
    "    out[local_id.x] = a[local_id.x] + 10.0;",
    "}",
  ];
  await page.goto(site.url("?puzzle=map"));
  await page.waitForSelector(`${sel("editor")} .cm-content`);
  await setCode(page, lines.join("\n"));
  assert.equal(await run(page), "failed");
  await page.waitForSelector(`${sel("diagnostics")} li`);
  const place = await page.$eval(`${sel("diagnostics")} li`, (li) => [li.dataset.line, li.dataset.column, li.innerText]);
  assert.equal(place[0], "5");
  assert.equal(place[1], String(lines[4].indexOf("nope") + 1));
  assert.match(place[2], /nope/);
  await page.waitForSelector(".cm-lintRange-error");
  assert.deepEqual(errors, []);
  await page.close();
});

test("Firefox: the compiled code shows a kernel in SPIR-V, and naga's message for one that does not parse", async () => {
  const { page, errors } = await open(browser, "?puzzle=tree-reduction");
  await setCode(page, read("shaders/tree-reduction.wgsl"));
  // Drawn by the views' module, fetched once the editor is ready.
  await page.waitForSelector(sel("compiled"), { timeout: 30_000 });
  await page.$eval(sel("compiled"), (d) => { d.open = true; });
  await page.select(sel("compiled-form"), "spirv");
  await click(page, "compiled-show");
  await page.waitForSelector(`${sel("compiled-text")}[data-form="spirv"]`, { timeout: 30_000 });
  const spirv = await text(page, "compiled-text");
  assert.ok(spirv.includes("OpControlBarrier") && spirv.includes("Workgroup"), spirv.slice(0, 400));
  await setCode(page, "@compute @workgroup_size(1) fn main() { let x = ; }");
  await click(page, "compiled-show");
  await page.waitForSelector(sel("compiled-error"), { timeout: 30_000 });
  assert.match(await text(page, "compiled-error"), /naga does not accept the shader/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Firefox: a performance case shows its figures, timed on this device", async () => {
  const { page, errors } = await open(browser, "?puzzle=divergence");
  await setCode(page, read("shaders/divergence.wgsl"));
  assert.equal(await run(page), "passed");
  const n = await page.$$eval('[data-testid^="performance-yours-"]', (els) => els[0].dataset.testid.split("-").pop());
  assert.match(await text(page, `performance-yours-${n}`), /ms \(.*(GPU timestamps[^)]*|wall time)\) · [\d.]+ (GFLOP|GB)\/s/);
  assert.match(await text(page, `performance-reference-${n}`), /ms \(/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Firefox: a 2-D buffer is drawn as an image, its wrong pixels marked and a region opened as numbers", async () => {
  const { page, errors } = await open(browser, "?puzzle=box-blur&seed=3");
  // The held kernel that assumes power-of-two sizes: case 8 (7 × 9) comes out wrong.
  await setCode(page, read("tests/gpu/solutions", "box-blur--assumes-power-of-two.wgsl"));
  assert.equal(await run(page), "failed");
  const differ = Number((await text(page, "grid-actual-8")).match(/(\d+) differ/)[1]);
  assert.ok(differ > 0, "the grid counts the wrong elements");
  assert.equal(await page.$eval(`${sel("image-difference-8")} ${sel("image-wrong")}`, (el) => el.innerText), ` · ${differ} wrong pixels`);
  // One vermilion pixel on the difference image's canvas per wrong element.
  const vermilion = await page.$eval(`${sel("image-difference-8")} canvas`, (c) => {
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === 0xd5 && d[i + 1] === 0x5e && d[i + 2] === 0x00) n++;
    return n;
  });
  assert.equal(vermilion, differ);
  await page.$eval(`${sel("image-difference-8")} canvas`, (el) => el.scrollIntoView({ block: "center" }));
  await page.click(`${sel("image-difference-8")} canvas`);
  await page.waitForSelector(sel("image-difference-8-region"));
  assert.equal(await page.$$eval(`${sel("image-difference-8-region")} td`, (tds) => tds.length), 63, "the region, cut at the picture's edges");
  assert.deepEqual(errors, []);
  await page.close();
});

test("Firefox: Jacobi's seven steps play, and stop on the last", async () => {
  const { page, errors } = await open(browser, "?puzzle=jacobi");
  await setCode(page, read("shaders", "jacobi.wgsl"));
  assert.equal(await run(page), "passed");
  await click(page, "play-case-3");
  await page.waitForSelector(sel("player-frames-3"), { timeout: 120_000 });
  assert.equal(await page.$eval(sel("player-frames-3"), (el) => el.dataset.frames), "7");
  await page.waitForFunction(() => document.querySelector('[data-testid="player-frames-3"]').dataset.frame === "6", { timeout: 20_000 });
  assert.equal(await text(page, "player-step-3"), "step 7 of 7");
  assert.equal(await text(page, "player-toggle-3"), "Play");
  // A step back shows step 6; the rate is said for what it is.
  await click(page, "player-back-3");
  assert.equal(await text(page, "player-step-3"), "step 6 of 7");
  assert.match(await text(page, "player-rate-3"), /steps a second on .*a software adapter|Emulated on the CPU/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Firefox: progress moves to another browser: exported as one file, imported in a fresh profile", async () => {
  const a = await browser.createBrowserContext();
  const { page, errors } = await open(a, "?puzzle=map");
  await setCode(page, read("shaders", "map.wgsl"));
  assert.equal(await run(page), "passed");
  await page.goto(site.url());
  await page.waitForSelector(sel("export-progress"));
  // The export is a Blob given to a download link: the file's text is
  // taken from the Blob as the page hands it over, and the download itself
  // is left out (a headless Firefox has no folder to put it in).
  await page.evaluate(() => {
    const create = URL.createObjectURL;
    URL.createObjectURL = (blob) => { blob.text().then((t) => { window.__exported = t; }); return create.call(URL, blob); };
    HTMLAnchorElement.prototype.click = function () { window.__downloadName = this.download; };
  });
  await click(page, "export-progress");
  await page.waitForFunction(() => typeof window.__exported === "string");
  const exported = JSON.parse(await page.evaluate(() => window.__exported));
  assert.match(await page.evaluate(() => window.__downloadName), /^gpu-puzzles-progress-\d{4}-\d{2}-\d{2}\.json$/);
  assert.equal(exported.format, "gpu-puzzles-progress");
  assert.equal(exported.puzzles.map.solved, true);
  assert.equal(exported.puzzles.map.passed, read("shaders", "map.wgsl"));
  assert.deepEqual(errors, []);
  await a.close();

  // A fresh profile: nothing solved, then the file imported.
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "progress-")), "progress.json");
  fs.writeFileSync(file, JSON.stringify(exported));
  const b = await browser.createBrowserContext();
  const fresh = { page: await b.newPage(), errors: [] };
  fresh.page.on("pageerror", (e) => fresh.errors.push(e.message));
  await fresh.page.goto(site.url());
  await fresh.page.waitForSelector(sel("solved-count"));
  assert.match(await text(fresh.page, "solved-count"), /^0 of \d+ solved/);
  const input = await fresh.page.$(sel("import-progress-file"));
  await input.uploadFile(file);
  await fresh.page.waitForFunction(() => /Imported/.test(document.querySelector('[data-testid="progress-status"]')?.innerText ?? ""));
  assert.match(await text(fresh.page, "progress-status"), /Imported code for Map, and solved marks for Map\./);
  assert.match(await text(fresh.page, "solved-count"), /^1 of \d+ solved/);
  await fresh.page.goto(site.url("?puzzle=map"));
  await fresh.page.waitForSelector(`${sel("editor")} .cm-content`);
  assert.equal(await code(fresh.page), read("shaders", "map.wgsl"));
  assert.deepEqual(fresh.errors, []);
  await b.close();
});

test("Firefox: the debugger steps a workgroup to its barrier", async () => {
  const { page, errors } = await open(browser, "?puzzle=shared");
  await setCode(page, read("shaders/shared.wgsl"));
  await click(page, "step-case-1");
  await page.waitForSelector(`${sel("debugger-invocations")} button`);
  await click(page, "debugger-next-barrier");
  await page.waitForFunction(() => {
    const cells = [...document.querySelectorAll('[data-testid="debugger-invocations"] button')];
    return cells.length > 0 && cells.every((b) => b.dataset.status === "waiting");
  });
  assert.match(await text(page, "debugger-state"), /wait at the barrier on line \d+/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Firefox: print: a failing Softmax prints each row's maximum, filtered to one workgroup, and a line opens the debugger", async () => {
  const { page, errors } = await open(browser, "?puzzle=softmax");
  const journey = printJourney();
  await setCode(page, journey.source);
  assert.equal(await run(page), "failed");
  await page.waitForSelector(`${sel("prints-1")} [data-testid="print-line"]`);
  journey.checkAll(await page.evaluate(printLines));
  await page.evaluate(choosePrintWorkgroup, journey.workgroup);
  await page.waitForFunction(printLinesOf, {}, "(1, 0, 0)");
  journey.checkOne(await page.evaluate(printLinesOf, "(1, 0, 0)"));
  await page.$$eval(`${sel("prints-1")} [data-testid="print-debug"]`, (bs) => bs[2].click());
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="debugger-invocations"] button')].some((b) => b.dataset.focus === "true"));
  assert.deepEqual(errors, []);
  await page.close();
});

test("Firefox: code is kept across a reload, and a share link opens in a fresh profile", async () => {
  const { page } = await open(browser, "?puzzle=guards");
  await setCode(page, "// my work in progress\n");
  await new Promise((r) => setTimeout(r, 700)); // past the save delay
  await page.reload();
  await page.waitForSelector(`${sel("editor")} .cm-content`);
  assert.equal(await code(page), "// my work in progress\n");

  const shared = read("shaders/map.wgsl");
  await page.goto(site.url("?puzzle=map"));
  await page.waitForSelector(`${sel("editor")} .cm-content`);
  await setCode(page, shared);
  await click(page, "share-button");
  await page.waitForFunction(() => /#code=[A-Za-z0-9_-]+$/.test(document.querySelector('[data-testid="share-link"]')?.value ?? ""));
  const link = await page.$eval(sel("share-link"), (el) => el.value);
  await page.close();

  const context = await browser.createBrowserContext();
  const other = await context.newPage();
  await other.goto(link);
  await other.waitForSelector(sel("shared-banner"));
  assert.equal(await code(other), shared);
  assert.equal(await run(other), "passed");
  await context.close();
});

test("Firefox: the capstone writes text with our kernels, every token checked against the CPU", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(site.url("?generate"));
  await page.waitForSelector(sel("generate-page"));
  await page.$eval(sel("generate-count"), (el) => {
    el.value = "12";
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await click(page, "generate-button");
  await page.waitForFunction(() => ["done", "error"].includes(document.querySelector('[data-testid="generate-output"]')?.dataset.status), { timeout: 300_000 });
  assert.equal(await page.$eval(sel("generate-output"), (el) => el.dataset.status), "done", await text(page, "generate-output"));
  assert.ok((await text(page, "generate-output")).startsWith("In the beginning"));
  assert.equal([...(await text(page, "generate-text"))].length, 12);
  assert.match(await text(page, "generate-check"), /every token checked against the CPU: 1[0-2] of 12 sampled the same/);
  assert.ok(Number(await page.$eval(sel("generate-speed"), (el) => el.dataset.tps)) > 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Firefox: offline, after one visit the site opens and judges with its server gone", async () => {
  const own = await serve();
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(own.url("?puzzle=map"));
  await page.waitForSelector(`${sel("editor")} .cm-content`);
  // The service worker keeps every file of the build before it takes control of the page.
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, { timeout: 60_000 });
  // The first visit's judge has loaded (its files came from the server, before the service worker took over).
  await page.waitForFunction(() => document.querySelector('[data-testid="gpu-status"]')?.textContent.startsWith("GPU:"), { timeout: 60_000 });
  await page.goto("about:blank");
  own.server.closeAllConnections();
  await new Promise((r) => own.server.close(r));
  await page.goto(own.url("?puzzle=zip"));
  await page.waitForSelector(`${sel("editor")} .cm-content`);
  await setCode(page, read("shaders/zip.wgsl"));
  assert.equal(await run(page), "passed");
  assert.deepEqual(errors, []);
  await context.close();
});
