// Student comforts, in headless Chromium with WebGPU: saved code, hints and
// the solution, share links, keyboard-only use, Vim mode, narrow screens, and
// a build without solutions.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT, serve, launch, PuzzlePage, openPage } from "./harness.mjs";

let site, browser;
before(async () => {
  site = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  site?.server.close();
});

const solution = (slug) => fs.readFileSync(path.join(ROOT, "shaders", `${slug}.wgsl`), "utf8");

async function fresh(options = {}) {
  const context = await browser.newContext(options);
  return { context, ...(await openPage(context)) };
}

test("code is autosaved and survives a reload; reset can be undone", async () => {
  const { context, page, p } = await fresh();
  await p.open(site.url("?puzzle=guards"));
  await p.setCode("// my work in progress\n");
  await page.waitForTimeout(700); // past the save delay
  await page.reload();
  await p.testid("editor").locator(".cm-content").waitFor();
  assert.equal(await p.code(), "// my work in progress\n");
  await p.testid("reset-button").click();
  assert.match(await p.code(), /TODO/);
  await p.testid("undo-reset").click();
  assert.equal(await p.code(), "// my work in progress\n");
  await context.close();
});

// The status line under "Your progress", once it says something matching `pattern`.
async function progressStatus(page, pattern) {
  await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid="progress-status"]')?.innerText ?? ""), pattern.source);
  return page.locator('[data-testid="progress-status"]').innerText();
}

test("progress moves to another browser: one file out, merged in, code of unknown age replaced only when the student says so", async () => {
  // A browser where Map is solved and Zip half done.
  const a = await fresh({ acceptDownloads: true });
  await a.p.open(site.url("?puzzle=map"));
  await a.p.setCode(solution("map"));
  assert.equal(await a.p.run(), "passed");
  await a.p.open(site.url("?puzzle=zip"));
  await a.p.setCode("// zip, half done\n");
  await a.page.waitForTimeout(700); // past the save delay
  await a.page.goto(site.url());
  const [download] = await Promise.all([a.page.waitForEvent("download"), a.p.testid("export-progress").click()]);
  assert.match(download.suggestedFilename(), /^gpu-puzzles-progress-\d{4}-\d{2}-\d{2}\.json$/);
  const file = await download.path();
  const exported = JSON.parse(fs.readFileSync(file, "utf8"));
  assert.equal(exported.format, "gpu-puzzles-progress");
  assert.equal(exported.version, 1);
  assert.equal(exported.puzzles.map.solved, true);
  assert.equal(exported.puzzles.map.passed, solution("map"));
  assert.equal(exported.puzzles.zip.code, "// zip, half done\n");
  assert.ok(exported.puzzles.zip.savedAt > Date.now() - 600_000, "the save's time travels with the code");
  assert.match(await progressStatus(a.page, /Exported/), /Exported your progress on 2 puzzles/);
  assert.deepEqual(a.errors, []);
  const fileCopy = path.join(path.dirname(file), "progress-copy.json");
  fs.copyFileSync(file, fileCopy);
  await a.context.close();

  // Another browser, with Zip code of its own saved before the site kept times.
  const b = await fresh();
  await b.page.goto(site.url());
  await b.page.evaluate(() => localStorage.setItem("gpu-puzzles:v1:code:zip", "gpu-puzzles-code/1\n// mine\n"));
  await b.page.reload();
  const input = b.p.testid("import-progress-file");
  // Files that are not progress, or from a later site, change nothing.
  await input.setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"hello": 1}') });
  assert.match(await progressStatus(b.page, /Nothing was imported/), /“notes.json”: it is not a progress file exported by GPU Puzzles .*Your progress here is unchanged/);
  await input.setInputFiles({ name: "later.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify({ ...exported, version: 2 })) });
  assert.match(await progressStatus(b.page, /newer version/), /exported by a newer version of the site \(version 2\); this one reads version 1/);
  assert.match(await b.p.testid("solved-count").innerText(), /^0 of \d+ solved/);
  // Cancel keeps this browser's Zip; Map comes in, solved.
  let asked = "";
  b.page.once("dialog", (d) => { asked = d.message(); d.dismiss(); });
  await input.setInputFiles(fileCopy);
  const words = await progressStatus(b.page, /Imported/);
  assert.match(asked, /other code for Zip, and it cannot tell whose is newer/);
  assert.match(words, /Imported code for Map, and solved marks for Map\. Kept your code for Zip, as you chose\./);
  assert.match(await b.p.testid("solved-count").innerText(), /^1 of \d+ solved/);
  await b.p.open(site.url("?puzzle=zip"));
  assert.equal(await b.p.code(), "// mine\n");
  await b.p.open(site.url("?puzzle=map"));
  assert.equal(await b.p.code(), solution("map"));
  // Importing again and saying yes replaces it.
  await b.page.goto(site.url());
  b.page.once("dialog", (d) => d.accept());
  await b.p.testid("import-progress-file").setInputFiles(fileCopy);
  assert.match(await progressStatus(b.page, /Imported/), /Imported code for Zip\./);
  await b.p.open(site.url("?puzzle=zip"));
  assert.equal(await b.p.code(), "// zip, half done\n");
  assert.deepEqual(b.errors, []);
  await b.context.close();
});

test("an unreadable saved entry is skipped with a notice", async () => {
  const { context, page, p, errors } = await fresh();
  await page.goto(site.url());
  await page.evaluate(() => localStorage.setItem("gpu-puzzles:v1:code:zip", "{not ours"));
  await p.open(site.url("?puzzle=zip"));
  assert.match(await p.testid("notice").innerText(), /could not be read/);
  assert.match(await p.code(), /TODO/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("hints come one at a time; the solution needs a confirmation", async () => {
  const { context, p } = await fresh();
  await p.open(site.url("?puzzle=dot-product"));
  assert.equal(await p.page.locator('[data-testid^="hint-"]:not([data-testid="hint-button"])').count(), 0);
  await p.testid("hint-button").click();
  await p.testid("hint-1").waitFor();
  assert.equal(await p.page.locator('[data-testid="hint-2"]').count(), 0);
  await p.testid("hint-button").click();
  await p.testid("hint-2").waitFor();
  assert.equal(await p.testid("solution").count(), 0);
  await p.testid("solution-button").click();
  assert.equal(await p.testid("solution").count(), 0, "not before the confirmation");
  await p.testid("solution-confirm").click();
  assert.equal((await p.testid("solution").innerText()).trim(), solution("dot-product").trim());
  await context.close();
});

test("a solution that cannot be fetched says why and loads on Try again; the code stays", async () => {
  const { context, page, p } = await fresh({ serviceWorkers: "block" });
  let refuse = true;
  await page.route(/\/solutions\/zip\.wgsl/, (route) => (refuse ? route.abort() : route.continue()));
  await p.open(site.url("?puzzle=zip"));
  await p.setCode("// my work\n");
  await p.testid("solution-button").click();
  await p.testid("solution-confirm").click();
  const problem = await p.testid("solution-error").innerText();
  assert.match(problem, /It did not load: our solution could not be fetched .*try again/s);
  refuse = false;
  await p.page.getByRole("button", { name: "Try again" }).click();
  assert.equal((await p.testid("solution").innerText()).trim(), solution("zip").trim());
  assert.equal((await p.code()).trim(), "// my work");
  await context.close();
});

test("a puzzle's data is fetched when it is opened, not before; one that cannot be fetched says why, and Try again opens it with the saved code", async () => {
  const { context, page, p } = await fresh({ serviceWorkers: "block" });
  const asked = [];
  let refuse = false;
  await page.route(/\/puzzle-data\//, (route) => {
    asked.push(new URL(route.request().url()).pathname.split("/").slice(-1)[0] + new URL(route.request().url()).search);
    return refuse ? route.abort() : route.continue();
  });
  // The list needs titles only: it fetches no puzzle's data.
  await page.goto(site.url());
  await p.testid("puzzle-list").locator("li").first().waitFor();
  assert.deepEqual(asked, []);
  // Opening a puzzle fetches its file alone, with the build's version.
  await p.testid("puzzle-list").locator("a").nth(1).click();
  await p.testid("editor").locator(".cm-content").waitFor();
  assert.match(await p.testid("puzzle-title").innerText(), /^2\. /);
  assert.equal(asked.length, 1, `asked: ${asked}`);
  assert.match(asked[0], /^[a-z0-9-]+\.postcard\?v=[0-9a-f]{16}$/);
  await p.setCode("// my work\n");
  await p.page.waitForFunction(() => Object.keys(localStorage).some((k) => localStorage.getItem(k)?.includes("// my work")));
  // A reload that cannot fetch it: the reason and Try again, never a blank page.
  refuse = true;
  await page.reload();
  const problem = await p.testid("puzzle-load-error").innerText();
  assert.match(problem, /could not be opened: the puzzle could not be fetched .*try again/s);
  refuse = false;
  await p.testid("puzzle-load-retry").click();
  await p.testid("editor").locator(".cm-content").waitFor();
  assert.equal((await p.code()).trim(), "// my work");
  await context.close();
});

test("a share link round-trips without overwriting saved code until kept", async () => {
  const { context, page, p } = await fresh();
  await p.open(site.url("?puzzle=map"));
  await p.setCode("// mine\n");
  await page.waitForTimeout(700);
  const shared = solution("map");
  await p.setCode(shared);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await p.testid("share-button").click();
  const link = await p.testid("share-link").inputValue();
  assert.match(link, /\?puzzle=map#code=[A-Za-z0-9_-]+$/);
  // The browser compressed it (CompressionStream), after the click, and the
  // clipboard still got it (a ClipboardItem handed a promise during the click).
  await page.waitForFunction(async (l) => (await navigator.clipboard.readText()) === l, link, { timeout: 5000 });
  // Back to my own text, saved.
  await p.setCode("// mine\n");
  await page.waitForTimeout(700);
  // A classmate opens the link in the same browser.
  const other = await context.newPage();
  const q = new PuzzlePage(other);
  await q.open(link);
  assert.equal(await q.code(), shared);
  await q.testid("shared-banner").waitFor();
  assert.equal(await q.run(), "passed");
  // Not saved yet: a plain visit shows my own code.
  await page.goto(site.url("?puzzle=map"));
  await p.testid("editor").locator(".cm-content").waitFor();
  assert.equal(await p.code(), "// mine\n");
  // Keeping it saves it.
  await q.testid("keep-shared").click();
  await page.reload();
  await p.testid("editor").locator(".cm-content").waitFor();
  assert.equal(await p.code(), shared);
  await context.close();
});

test("a damaged share link says so and shows the student's own code", async () => {
  const { context, p, errors } = await fresh();
  await p.open(site.url("?puzzle=zip#code=not-really-compressed-code"));
  assert.match(await p.testid("notice").innerText(), /share link could not be opened/);
  assert.match(await p.code(), /TODO/);
  await p.open(site.url(`?puzzle=zip#code=${"A".repeat(20000)}`));
  assert.match(await p.testid("notice").innerText(), /more than/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the whole flow works by keyboard alone", async () => {
  const { context, page, p } = await fresh();
  await page.goto(site.url());
  await page.locator('[data-testid="puzzle-list"] a').first().waitFor();
  // Tab to the first puzzle and open it.
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => document.activeElement?.closest('[data-testid="puzzle-list"]') !== null);
    if (focused) break;
  }
  await page.keyboard.press("Enter");
  await p.testid("editor").locator(".cm-content").waitFor();
  assert.match(await p.testid("puzzle-title").innerText(), /^1\. Map/);
  // Tab into the editor, replace the text by typing, run with Ctrl+Enter.
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => document.activeElement?.classList.contains("cm-content"))) break;
  }
  assert.ok(await page.evaluate(() => document.activeElement?.classList.contains("cm-content")), "the editor takes focus by Tab");
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  await page.keyboard.type("@group(0) @binding(0) var<storage, read> a: array<f32>;\n@group(0) @binding(1) var<storage, read_write> out: array<f32>;\n@compute @workgroup_size({{workgroupSize}})\nfn main(@builtin(local_invocation_id) l: vec3<u32>) {\nout[l.x] = a[l.x] + 10.0;\n", { delay: 0 });
  await page.keyboard.press("Control+Enter");
  await page.waitForFunction(() => ["passed", "failed", "error"].includes(document.querySelector('[data-testid="verdict"]')?.dataset.status), null, { timeout: 60_000 });
  assert.equal(await p.testid("verdict").getAttribute("data-status"), "passed");
  // Leave the editor (Escape, then Tab moves focus on) and reach the next puzzle link.
  await page.keyboard.press("Escape");
  await page.focus('[data-testid="next-puzzle"]');
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector('[data-testid="puzzle-title"]')?.textContent.startsWith("2. Zip"));
  await context.close();
});

test("Vim mode is fetched when switched on, and remembered", async () => {
  const { context, page, p } = await fresh();
  const vimFetches = [];
  page.on("request", (r) => {
    if (/\/lazy\/vim-[0-9a-f]+\.js$/.test(r.url())) vimFetches.push(r.url());
  });
  await p.open(site.url("?puzzle=map"));
  await p.testid("editor").locator(".cm-content").waitFor();
  assert.deepEqual(vimFetches, [], "a first visit with Vim off does not fetch the Vim bindings");
  await p.testid("vim-toggle").check();
  await page.locator(".cm-vimMode, .cm-fat-cursor").first().waitFor({ timeout: 5000 });
  await page.reload();
  await p.testid("editor").locator(".cm-content").waitFor();
  assert.ok(await p.testid("vim-toggle").isChecked());
  await page.locator(".cm-vimMode, .cm-fat-cursor").first().waitFor({ timeout: 5000 });
  assert.equal(vimFetches.length, 2, "fetched once per page load with Vim on");
  await context.close();
});

test("Vim bindings that cannot be fetched say so and leave the editor as it was", async () => {
  // A first visit whose fetch fails: no service worker has kept the bundle
  // yet (once one has, the bundle comes from its cache and cannot fail).
  const { context, page, p } = await fresh({ serviceWorkers: "block" });
  await p.open(site.url("?puzzle=map"));
  await p.setCode("// my work\n");
  await page.route(/\/lazy\/vim-[0-9a-f]+\.js$/, (route) => route.abort());
  // A click, not check(): the box unticks itself once the fetch fails.
  await p.testid("vim-toggle").click();
  const problem = await p.testid("vim-problem").textContent({ timeout: 5000 });
  assert.match(problem, /Vim keys are off: the Vim key bindings could not be loaded/);
  assert.equal(await p.testid("vim-toggle").isChecked(), false);
  assert.equal(await page.locator(".cm-fat-cursor").count(), 0);
  assert.equal(await p.code(), "// my work\n");
  await context.close();
});

test("the views' module comes after editor ready; when it cannot be fetched the page says so, keeps the code, and Try again recovers, on a host that serves wasm untyped too", async () => {
  // No service worker, so the fetch reaches the network (and can fail).
  const { context, page, p, errors } = await fresh({ serviceWorkers: "block" });
  const views = /\/views-[0-9a-f]{16}\.wasm$/;
  let blocked = true;
  // Then served as a host might that does not know .wasm's type: the
  // module is still read (post-build.mjs gives the split's loader a
  // fallback, as wasm-bindgen's own loader has one for the page's wasm).
  await page.route(views, async (route) => {
    if (blocked) return route.abort();
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), "content-type": "application/octet-stream" } });
  });
  await p.open(site.url("?puzzle=map"));
  await p.setCode("// my work\n");
  const failed = p.testid("views-failed");
  await failed.waitFor({ timeout: 15_000 });
  assert.match(await failed.textContent(), /The code that shows the test cases could not be downloaded\. Check the connection, then Try again/);
  assert.equal(await p.code(), "// my work\n", "the student's code stays");
  // The fetch was asked for only once the editor was ready.
  const order = await page.evaluate(() => ({
    ready: performance.getEntriesByName("editor-ready")[0]?.startTime,
    views: performance.getEntriesByType("resource").find((e) => /\/views-[0-9a-f]{16}\.wasm$/.test(e.name))?.startTime,
  }));
  assert.ok(order.ready !== undefined && order.views !== undefined, `both the mark and the fetch were seen: ${JSON.stringify(order)}`);
  assert.ok(order.views >= order.ready, `the views' module was fetched after editor ready: ${JSON.stringify(order)}`);
  blocked = false;
  await p.testid("views-retry").click();
  await p.testid("verdict").waitFor({ timeout: 15_000 });
  assert.equal(await failed.count(), 0, "the notice is gone once the module is in");
  await p.setCode(solution("map"));
  assert.equal(await p.run(), "passed");
  assert.deepEqual(errors, []);
  await context.close();
});

test("on a phone-sized screen the statement, editor and results stack", async () => {
  const { context, page, p } = await fresh({ viewport: { width: 390, height: 844 } });
  await p.open(site.url("?puzzle=broadcast"));
  await p.setCode(solution("broadcast"));
  assert.equal(await p.run(), "passed");
  const box = async (sel) => page.locator(sel).first().boundingBox();
  const statement = await box(".statement");
  const editor = await box('[data-testid="editor"]');
  const verdict = await box('[data-testid="verdict"]');
  assert.ok(editor.y >= statement.y + statement.height - 1, "the editor is below the statement");
  assert.ok(verdict.y > editor.y, "results are below the editor");
  assert.ok(editor.width <= 390 && editor.x >= 0, `the editor fits: ${JSON.stringify(editor)}`);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= 392, `no sideways scrolling of the page: ${scrollWidth}`);
  fs.mkdirSync(path.join(ROOT, "tests/e2e/artifacts"), { recursive: true });
  await page.screenshot({ path: path.join(ROOT, "tests/e2e/artifacts/narrow.png"), fullPage: false });
  await context.close();
});

test("our solutions are files beside the site, and a build without them has none, in the page or in its files", async () => {
  const SOLUTION = "Map: one invocation per element.";
  const carries = (dir) =>
    fs.readdirSync(dir).filter((f) => (f.endsWith(".wasm") || f.endsWith(".js")) && fs.readFileSync(path.join(dir, f)).toString("latin1").includes(SOLUTION));
  // The full build: the solutions in solutions/, named and versioned in
  // index.html and kept by the service worker, and in neither wasm.
  const full = path.join(ROOT, "dist");
  assert.ok(fs.readFileSync(path.join(full, "solutions/map.wgsl"), "utf8").includes(SOLUTION));
  const version = fs.readFileSync(path.join(full, "index.html"), "utf8").match(/<meta name="gpu-puzzles-solutions" content="(\?v=[0-9a-f]{16})"/);
  assert.ok(version, "index.html names the solutions' version");
  assert.ok(fs.readFileSync(path.join(full, "sw.js"), "utf8").includes(`"./solutions/map.wgsl${version[1]}"`), "the service worker keeps them");
  assert.deepEqual(carries(full), [], "no solution compiled in");
  // Without them: no folder, no meta, nothing kept, no button.
  const dir = path.join(ROOT, "dist-nosolutions");
  assert.ok(!fs.existsSync(path.join(dir, "solutions")));
  assert.ok(!fs.readFileSync(path.join(dir, "index.html"), "utf8").includes("gpu-puzzles-solutions"));
  assert.ok(!fs.readFileSync(path.join(dir, "sw.js"), "utf8").includes("solutions/"));
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".wasm") || f.endsWith(".js"));
  assert.ok(files.length >= 2, files.join(","));
  assert.deepEqual(carries(dir), []);
  const other = await serve(dir);
  try {
    const context = await browser.newContext();
    const p = new PuzzlePage(await context.newPage());
    await p.open(other.url("?puzzle=map"));
    await p.testid("hint-button").waitFor();
    assert.equal(await p.testid("solution-button").count(), 0);
    await context.close();
  } finally {
    other.server.close();
  }
});

test("a 2-D buffer is drawn as an image: the wrong pixels marked and counted, a region opened as numbers, NaN counted", async () => {
  const { context, page, p } = await fresh();
  await p.open(site.url("?puzzle=box-blur&seed=3"));
  // The held kernel that assumes power-of-two sizes: case 8 (7 × 9, three
  // by five invocations a workgroup) comes out wrong, the judge says where.
  await p.setCode(fs.readFileSync(path.join(ROOT, "tests/gpu/solutions/box-blur--assumes-power-of-two.wgsl"), "utf8"));
  assert.equal(await p.run(), "failed");
  const differ = Number((await p.testid("grid-actual-8").locator(".mismatch-count").innerText()).match(/(\d+) differ/)[1]);
  assert.ok(differ > 0, "the grid counts the wrong elements");
  const figure = p.testid("image-difference-8");
  assert.equal(await figure.getAttribute("data-width"), "9");
  assert.equal(await figure.getAttribute("data-height"), "7");
  assert.equal(await figure.getByTestId("image-wrong").innerText(), ` · ${differ} wrong pixels`);
  // The canvas holds the marks: vermilion pixels, one per wrong element.
  const pixels = async (id) => page.locator(`[data-testid="${id}"] canvas`).evaluate((c) => {
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    const out = [];
    for (let i = 0; i < d.length; i += 4) out.push([d[i], d[i + 1], d[i + 2]]);
    return out;
  });
  const vermilion = (await pixels("image-difference-8")).filter(([r, g, b]) => r === 0xd5 && g === 0x5e && b === 0x00).length;
  assert.equal(vermilion, differ);
  // The input is a grey scale: its darkest pixel is black, its lightest white.
  const input = await pixels("image-input-8-a");
  assert.ok(input.every(([r, g, b]) => r === g && g === b), "grey");
  assert.deepEqual([Math.min(...input.map((x) => x[0])), Math.max(...input.map((x) => x[0]))], [0, 255]);
  // A click opens the numbers around it: the region's grid, its wrong
  // cells marked as the whole grid marks them.
  await figure.locator("canvas").click({ position: { x: 5, y: 5 } });
  const region = p.testid("image-difference-8-region");
  await region.waitFor();
  assert.equal(await region.locator("td").count(), 63, "a region of up to 16 × 16, cut at the edges");
  assert.match(await region.locator("figcaption").innerText(), new RegExp(`rows 0–6, columns 0–8 of 7 × 9 · ${differ} differ`));
  // Keyboard: Escape closes it, Enter opens it again.
  await figure.locator("canvas").press("Escape");
  assert.equal(await region.count(), 0);
  await figure.locator("canvas").press("Enter");
  await region.waitFor();

  // A kernel that writes NaN everywhere: the actual image counts them and
  // draws them in their own colour.
  await p.setCode(`struct Dims { rows: u32, cols: u32 }
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> dims: Dims;
@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < dims.cols && g.y < dims.rows) {
        let zero = a[0] - a[0];
        out[g.y * dims.cols + g.x] = zero / zero;
    }
}
`);
  assert.equal(await p.run(), "failed");
  assert.equal(await p.testid("image-actual-8").getByTestId("image-special").innerText(), "63 NaN");
  const nan = (await pixels("image-actual-8")).filter(([r, g, b]) => r === 0xcc && g === 0x79 && b === 0xa7).length;
  assert.equal(nan, 63);
  assert.equal(await p.testid("image-difference-8").getByTestId("image-wrong").innerText(), " · 63 wrong pixels");
  await context.close();
});

test("the theme can be chosen (system, light, dark), is remembered, and the editor follows it", async () => {
  // The system says light; the student chooses dark.
  const { context, page, p } = await fresh({ colorScheme: "light" });
  await p.open(site.url("?puzzle=map"));
  const rootBackground = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  // A comment's colour in the editor (the starter opens with comments).
  const commentColour = () => page.evaluate(() => {
    const span = [...document.querySelectorAll(".cm-line span")].find((s) => s.textContent.trim().startsWith("//"));
    return span ? getComputedStyle(span).color : null;
  });
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme ?? null), null, "the system's theme by default");
  const light = await rootBackground();
  const lightComment = await commentColour();
  assert.ok(lightComment, "the starter shows a comment");
  await p.testid("theme-choice").selectOption("dark");
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
  assert.notEqual(await rootBackground(), light, "the page turned dark");
  await page.waitForFunction((before) => {
    const span = [...document.querySelectorAll(".cm-line span")].find((s) => s.textContent.trim().startsWith("//"));
    return span && getComputedStyle(span).color !== before;
  }, lightComment);
  // Remembered across a reload, and in the list too.
  await page.reload();
  await p.testid("editor").locator(".cm-content").waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
  assert.equal(await p.testid("theme-choice").inputValue(), "dark");
  assert.notEqual(await commentColour(), lightComment, "the editor opens dark");
  // Back to the system's: light again.
  await p.testid("theme-choice").selectOption("system");
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme ?? null), null);
  assert.equal(await rootBackground(), light);
  await context.close();
});

test("a keyboard leaves the editor as the page says: Esc then Tab, with Vim keys Esc twice", async () => {
  const { context, page, p } = await fresh();
  await p.open(site.url("?puzzle=map"));
  const hint = await p.testid("editor-keys").innerText();
  assert.match(hint, /Esc then Tab/);
  assert.equal(await p.testid("editor").locator(".cm-content").getAttribute("aria-describedby"), "editor-keys", "the editor's text is described by the hint");
  const inEditor = () => page.evaluate(() => Boolean(document.activeElement?.closest(".cm-editor")));
  const leave = async (escapes) => {
    await p.testid("editor").locator(".cm-content").click();
    assert.ok(await inEditor(), "the editor has the focus");
    await page.keyboard.press("Tab");
    assert.ok(await inEditor(), "Tab alone indents, the focus stays");
    for (let k = 0; k < escapes; k++) await page.keyboard.press("Escape");
    await page.keyboard.press("Tab");
    assert.equal(await inEditor(), false, "Esc then Tab moved the focus on");
  };
  await leave(1);
  // With Vim keys, in insert mode (so that Tab indents): the first Esc
  // returns to normal mode, the second readies Tab to move on.
  await p.testid("vim-toggle").check();
  await page.locator(".cm-fat-cursor, .cm-vim-panel").first().waitFor({ timeout: 10_000 });
  await p.testid("editor").locator(".cm-content").click();
  await page.keyboard.press("i");
  await leave(2);
  await context.close();
});
