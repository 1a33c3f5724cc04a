// Robustness in the browser: mutated shaders through the page, and memory
// over hundreds of runs. Figures are printed for the closing notes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT, serve, launch, PuzzlePage, openPage } from "./harness.mjs";

let site, browser;
before(async () => {
  site = await serve();
  browser = await launch({ extraArgs: ["--js-flags=--expose-gc", "--enable-precise-memory-info"] });
});
after(async () => {
  await browser?.close();
  site?.server.close();
});

/** Waits until the status line (the GPU, or the judge's state) matches `pattern`. */
/**
 * Collects the page's judge workers as they start, leaving out the judge's
 * helper (a worker the judge starts, named `gpu-puzzles-helper`, that
 * makes order checks: web/src/helper.rs).
 */
function judgeWorkers(page) {
  const workers = [];
  page.on("worker", async (w) => {
    const name = await w.evaluate(() => self.name).catch(() => null);
    if (name !== "gpu-puzzles-helper") workers.push(w);
  });
  return workers;
}

async function statusShows(page, pattern) {
  await page.waitForFunction((p) => new RegExp(p).test(document.querySelector('[data-testid="gpu-status"]').innerText), pattern, { timeout: 30_000 });
}

// The same fixed-seed mutations as tests/gpu/fuzz.rs, in miniature.
function* mutants(src, count, seed) {
  let s = BigInt(seed);
  const next = () => {
    s = (s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return Number((z ^ (z >> 31n)) % 1000000007n);
  };
  const lines = src.split("\n");
  const toks = src.match(/[A-Za-z0-9_.]+|[^A-Za-z0-9_.]/g);
  for (let k = 0; k < count; k++) {
    const kind = next() % 6;
    if (kind === 0) { const l = [...lines]; l.splice(next() % l.length, 1); yield l.join("\n"); }
    else if (kind === 1) { const l = [...lines]; const i = next() % l.length; l.splice(i, 0, l[i]); yield l.join("\n"); }
    else if (kind === 2) { const t = [...toks]; t.splice(next() % t.length, 1); yield t.join(""); }
    else if (kind === 3) { const t = [...toks]; const i = next() % t.length, j = next() % t.length; [t[i], t[j]] = [t[j], t[i]]; yield t.join(""); }
    else if (kind === 4) { yield src.replace(/\b\d+(\.\d+)?u?\b/, ["4294967295u", "1e39", "99999999999999999999"][next() % 3]); }
    else { const d = 1 + (next() % 200); const l = [...lines]; const i = l.findIndex((x) => x.trim().startsWith("out")); l[i] = "{".repeat(d) + l[i] + "}".repeat(d); yield l.join("\n"); }
  }
}

test("100 mutated shaders through the page: it stays responsive and the next correct run passes", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const p = new PuzzlePage(page);
  const slugs = ["map", "zip", "guards", "broadcast", "blocks-2d", "shared", "dot-product", "conv-1d", "prefix-sum", "matmul"];
  const seen = {};
  for (const [n, slug] of slugs.entries()) {
    await p.open(site.url(`?puzzle=${slug}`));
    const solution = fs.readFileSync(path.join(ROOT, "shaders", `${slug}.wgsl`), "utf8");
    for (const src of mutants(solution, 10, 1000 + n)) {
      await p.setCode(src);
      const verdict = await p.run({ timeout: 60_000 });
      seen[verdict] = (seen[verdict] || 0) + 1;
      assert.ok(["passed", "failed"].includes(verdict), `${slug}: verdict ${verdict}: ${await p.testid("verdict").innerText()}`);
    }
    await p.setCode(solution);
    assert.equal(await p.run(), "passed", `${slug}: the correct shader passes after the mutants`);
  }
  console.log(`100 mutants through the page: ${JSON.stringify(seen)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test("memory stays flat over 500 runs (the page's JS heap, the worker's wasm memory and live GPU buffers)", async () => {
  const page = await browser.newPage();
  const workers = judgeWorkers(page);
  const p = new PuzzlePage(page);
  // Map: every Run takes the whole path (compile, instrumented and plain
  // dispatches, random cases, heat maps) with the fewest shaders to
  // compile, so 500 Runs stay within CI's time.
  await p.open(site.url("?puzzle=map"));
  await statusShows(page, "^GPU: ");
  assert.equal(workers.length, 1, "one judge's worker");
  const worker = workers[0];
  // Count the GPU buffers the worker creates and destroys from here on (its
  // device exists; no Run has made a buffer yet).
  await worker.evaluate(() => {
    self.__buffers = { created: 0, destroyed: 0 };
    const create = GPUDevice.prototype.createBuffer;
    GPUDevice.prototype.createBuffer = function (d) {
      self.__buffers.created++;
      const b = create.call(this, d);
      const destroy = b.destroy.bind(b);
      b.destroy = () => { self.__buffers.destroyed++; return destroy(); };
      return b;
    };
  });
  await p.setCode(fs.readFileSync(path.join(ROOT, "shaders/map.wgsl"), "utf8"));
  const sample = async () => {
    const heap = await page.evaluate(() => { window.gc(); return performance.memory.usedJSHeapSize; });
    const w = await worker.evaluate(() => ({ wasm: self.judgeWasmMemory.buffer.byteLength, live: self.__buffers.created - self.__buffers.destroyed, created: self.__buffers.created }));
    return { heap, ...w };
  };
  for (let i = 0; i < 20; i++) assert.equal(await p.run(), "passed");
  const early = await sample();
  for (let i = 0; i < 480; i++) assert.equal(await p.run(), "passed");
  const late = await sample();
  const mb = (x) => (x / 2 ** 20).toFixed(2);
  console.log(`after 20 runs: page JS heap ${mb(early.heap)} MB, worker wasm memory ${mb(early.wasm)} MB, live GPU buffers ${early.live}; after 500 runs: ${mb(late.heap)} MB, ${mb(late.wasm)} MB, ${late.live} (${late.created} created)`);
  assert.ok(early.created > 0, "the runs created GPU buffers in the worker (the count is not vacuous)");
  assert.ok(late.live <= early.live, `live GPU buffers grew: ${early.live} → ${late.live}`);
  assert.ok(late.heap - early.heap < 8 * 2 ** 20, `the page's JS heap grew by ${mb(late.heap - early.heap)} MB`);
  assert.ok(late.wasm - early.wasm < 8 * 2 ** 20, `the worker's wasm memory grew by ${mb(late.wasm - early.wasm)} MB`);
  await page.close();
});

test("the judge's worker is fetched once the editor is ready, and one that fails to load is replaced by the next Run", async () => {
  // No service worker: its fetches of the same files, to keep them for
  // offline use, would be counted here too (the offline journey tests it).
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  const p = new PuzzlePage(page);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // Whether the editor was ready when each of the worker's files was asked for.
  const asked = [];
  let failWasm = true;
  await context.route(/(worker-loader\.js|gpu-puzzles-worker(_bg\.wasm|\.js))(\?v=\w+)?$/, async (route) => {
    const ready = await page.evaluate(() => performance.getEntriesByName("editor-ready").length > 0).catch(() => false);
    const url = new URL(route.request().url());
    asked.push({ file: url.pathname.split("/").pop(), version: url.search, ready });
    if (failWasm && url.pathname.endsWith("_bg.wasm")) await route.abort();
    else await route.continue();
  });
  await p.open(site.url("?puzzle=map"));
  await statusShows(page, "judge is not running");
  assert.deepEqual(asked.map((a) => a.file), ["worker-loader.js", "gpu-puzzles-worker.js", "gpu-puzzles-worker_bg.wasm"]);
  assert.ok(asked.every((a) => a.ready), `every file of the worker asked for after editor-ready: ${JSON.stringify(asked)}`);
  // The build's hash of the worker's files, named in index.html, is asked of
  // all three, so no cache pairs this page with another build's worker.
  const named = new URL(await page.locator('meta[name="gpu-puzzles-worker"]').getAttribute("content"), page.url()).search;
  assert.match(named, /^\?v=[0-9a-f]{16}$/);
  assert.ok(asked.every((a) => a.version === named), `every file of the worker asked for with ${named}: ${JSON.stringify(asked)}`);
  assert.equal(await p.testid("no-webgpu").count(), 0, "a worker that did not load is not reported as a browser without WebGPU");

  const solution = fs.readFileSync(path.join(ROOT, "shaders/map.wgsl"), "utf8");
  await p.setCode(solution);
  failWasm = false;
  assert.equal(await p.run(), "passed", "the next Run starts a new worker and is judged");
  await statusShows(page, "^GPU: ");
  assert.equal(await p.code(), solution, "the student's code is untouched");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a worker from another build, whose replies the page cannot read, is stopped instead of waited on", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // The first worker sends what a worker of another build would: a message
  // in this page's form (a byte array) but under another build's
  // fingerprint. Later workers are real.
  let stale = true;
  await context.route(/worker-loader\.js(\?v=\w+)?$/, async (route) => {
    if (!stale) return route.continue();
    stale = false;
    await route.fulfill({
      contentType: "text/javascript",
      body: 'postMessage(new TextEncoder().encode("0123456789abcdef\\u0000\\u0000"));',
    });
  });
  const p = new PuzzlePage(page);
  await p.open(site.url("?puzzle=map"));
  await statusShows(page, "judge is not running");
  assert.match(await p.testid("gpu-status").getAttribute("title"), /do not match this page's.*reload the page/);
  const solution = fs.readFileSync(path.join(ROOT, "shaders/map.wgsl"), "utf8");
  await p.setCode(solution);
  assert.equal(await p.run(), "passed", "the next Run starts a new worker and is judged");
  assert.equal(await p.code(), solution, "the student's code is untouched");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a judge that panics is replaced: the page says so, keeps the code, and the next Run is judged", async () => {
  const page = await browser.newPage();
  const workers = judgeWorkers(page);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // Messages are this build's fingerprint (16 bytes) and then postcard:
  // keep the fingerprint the page's requests carry, to write one here.
  await page.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      if (message instanceof Uint8Array) self.fingerprint = Array.from(message.slice(0, 16));
      return post.call(this, message, ...rest);
    };
  });
  const p = new PuzzlePage(page);
  await p.open(site.url("?puzzle=map"));
  await statusShows(page, "^GPU: ");
  const solution = fs.readFileSync(path.join(ROOT, "shaders/map.wgsl"), "utf8");
  await p.setCode(solution);
  const fingerprint = await page.evaluate(() => self.fingerprint);
  assert.equal(fingerprint?.length, 16, "the page's requests start with the build's fingerprint");
  // The worker panics, as a bug in naga or the interpreter would (the panic
  // happens in an async handler, where no error event reaches the page):
  // request 999 (0xe7 0x07 as a postcard varint) is `Request::Crash`
  // (variant 3 of `protocol::Request`).
  await workers[0].evaluate((fp) => self.onmessage(new MessageEvent("message", { data: new Uint8Array([...fp, 0xe7, 0x07, 3]) })), fingerprint);
  await statusShows(page, "judge is not running");
  assert.equal(await p.code(), solution, "the student's code is untouched");
  assert.equal(await p.run(), "passed", "the next Run starts a new worker and is judged");
  assert.equal(workers.length, 2, "a second worker was started");
  await statusShows(page, "^GPU: ");
  assert.match(await p.testid("gpu-status").innerText(), /^GPU: /);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a click to the next puzzle right after a quick Run leaves no error behind (a late save into a page that is gone)", async () => {
  // A Run of Map ends before the editor's save delay (400 ms) has passed, so
  // the save is still pending when the student moves on; it once fired into
  // the disposed page and panicked there (found by tests/e2e/bench-soak.mjs).
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const p = new PuzzlePage(page);
  await p.open(site.url("?puzzle=map"));
  const source = fs.readFileSync(path.join(ROOT, "shaders/map.wgsl"), "utf8");
  for (let k = 0; k < 4; k++) {
    // Back to Map through the list's own link, then new code and a Run.
    if (k > 0) {
      await p.testid("prev-puzzle").click();
      await page.waitForFunction(() => location.search.includes("puzzle=map"));
      await p.testid("editor").locator(".cm-content").waitFor();
    }
    await p.setCode(`${source}\nfn edit_${k}() {}\n`);
    assert.equal(await p.run(), "passed");
    // At once, as a student clicks on.
    await p.testid("next-puzzle").click();
    await page.waitForFunction(() => location.search.includes("puzzle=zip"));
    await p.testid("editor").locator(".cm-content").waitFor();
    await page.waitForTimeout(600);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("leaving a puzzle frees its page: the editor's listeners and the page's DOM go with it", async () => {
  // CodeMirror sets listeners on the window and the document; an editor
  // replaced without `destroy()` kept them, and through its own DOM the
  // whole page it was in: some 3,500 DOM nodes and 39 listeners for every
  // puzzle left, most of the renderer's growth in the workshop soak
  // (tests/e2e/bench-soak.mjs). Blink's counters after a full collection
  // tell a page that is freed from one that is kept.
  const { page, p, errors } = await openPage(browser);
  await p.open(site.url("?puzzle=map"));
  const cdp = await page.context().newCDPSession(page);
  const counters = async () => {
    await cdp.send("HeapProfiler.collectGarbage");
    await page.waitForTimeout(200);
    await cdp.send("HeapProfiler.collectGarbage");
    return cdp.send("Memory.getDOMCounters");
  };
  const visit = async (slug) => {
    // As the list's links go: the client-side router, no new document.
    await page.evaluate((q) => {
      history.pushState(null, "", q);
      dispatchEvent(new PopStateEvent("popstate"));
    }, `?puzzle=${slug}`);
    await page.waitForFunction((s) => location.search.includes(s) && document.querySelectorAll(".cm-editor").length === 1, slug);
    await p.testid("verdict").waitFor();
  };
  await visit("softmax");
  await visit("map");
  const start = await counters();
  const onePage = start.nodes;
  const left = 10;
  for (let k = 0; k < left; k++) await visit(k % 2 ? "map" : "softmax");
  await visit("map");
  const end = await counters();
  assert.ok(onePage > 500, `a puzzle page has ${onePage} DOM nodes, enough to see one kept`);
  assert.ok(end.nodes - start.nodes < onePage / 2, `after ${left} puzzles left, ${end.nodes - start.nodes} more DOM nodes are alive (${start.nodes} → ${end.nodes}): a page that was left is kept`);
  assert.ok(end.jsEventListeners - start.jsEventListeners < left, `after ${left} puzzles left, ${end.jsEventListeners - start.jsEventListeners} more event listeners (${start.jsEventListeners} → ${end.jsEventListeners})`);
  assert.deepEqual(errors, []);
  await cdp.detach();
  await page.close();
});

test("the workshop soak, short: 100 Runs of new code over ten puzzles, and what the renderer and GPU process keep stays within the bound", async () => {
  // The soak's own short form (tests/e2e/bench-soak.mjs, its own browser
  // and server): a collection before each sample, so that what it measures
  // is what the page keeps, not garbage the browser has yet to collect; the
  // bound is issue 87's (100 MB over 450 Runs after the first 50) scaled to
  // the 50 Runs after the first 50, with its floor of 25 MB. It exits
  // non-zero when the bound is broken or a Run does not pass.
  const env = { ...process.env, SOAK_RUNS: "100", SOAK_EVERY: "50", SOAK_GC: "1" };
  const { code, out } = await new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, "tests/e2e/bench-soak.mjs")], { env, timeout: 900_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (err.code ?? 1) : 0, out: `${stdout}${stderr}` });
    });
  });
  console.log(out.trim());
  assert.match(out, /soak: renderer \+ GPU process grew/, "the soak measured its samples");
  assert.equal(code, 0, "the soak's bound held and every Run passed");
});

test("a lost GPU device: the next Run says so, gets a new device, keeps the code and is judged; a loss during a Run is told and recovered from too", async () => {
  // The loss is simulated where CI can run it: the worker's own GPUDevice
  // destroyed from inside the worker (a destroyed device is lost, with
  // reason "destroyed", as a driver reset or a runaway kernel makes it).
  const { page, p, errors } = await openPage(browser);
  const workers = judgeWorkers(page);
  await p.open(site.url("?puzzle=map"));
  await statusShows(page, "^GPU: ");
  assert.equal(workers.length, 1, "one judge's worker");
  const worker = workers[0];
  // Keep the device the worker makes its buffers on.
  await worker.evaluate(() => {
    const create = GPUDevice.prototype.createBuffer;
    GPUDevice.prototype.createBuffer = function (d) {
      self.__device = this;
      return create.call(this, d);
    };
  });
  const code = `${fs.readFileSync(path.join(ROOT, "shaders/map.wgsl"), "utf8")}\n// my edit\n`;
  await p.setCode(code);
  assert.equal(await p.run(), "passed");
  const first = await worker.evaluate(() => { const d = self.__device; d.destroy(); return d.lost.then((info) => info.reason); });
  assert.equal(first, "destroyed", "the device was lost");
  assert.equal(await p.run(), "passed", "the Run after the loss is judged on a new device");
  assert.match(await p.testid("notice").innerText(), /device had been lost; the page created a new one/);
  assert.equal(await p.code(), code, "the student's code is kept");
  const second = await worker.evaluate(() => self.__device);
  assert.ok(second !== undefined, "the new device made the Run's buffers");

  // Lost while a Run is under way: the Run ends with what happened, in
  // words, or (if it had finished first) passes; either way the next Run
  // is judged.
  const before = await p.finishedRuns();
  await p.testid("run-button").click();
  await worker.evaluate(() => self.__device.destroy());
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="verdict"]').dataset.run) > n, before, { timeout: 60_000 });
  const during = await p.testid("verdict").getAttribute("data-status");
  if (during !== "passed") assert.match(await p.testid("verdict").innerText(), /lost|device/i, "the Run says the device was lost");
  assert.equal(await p.run(), "passed", "and the next Run is judged");
  assert.equal(await p.code(), code);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a worker whose wasm memory passed its bound is replaced before the next Run, and not while the debugger holds it", async () => {
  // The bound lowered to 1 MB (the setting hosts of small machines have),
  // so every Run passes it: a wasm memory only grows, and a new worker
  // starts small.
  const { page, p, errors } = await openPage(browser);
  await page.addInitScript(() => localStorage.setItem("gpu-puzzles:v1:judge-memory-bound-mb", "1"));
  const workers = judgeWorkers(page);
  await p.open(site.url("?puzzle=map"));
  const code = `${fs.readFileSync(path.join(ROOT, "shaders/map.wgsl"), "utf8")}\n// mine\n`;
  await p.setCode(code);
  assert.equal(await p.run(), "passed");
  assert.equal(workers.length, 1);
  for (let k = 2; k <= 3; k++) {
    assert.equal(await p.run(), "passed", `Run ${k}, on a new worker`);
    assert.equal(workers.length, k, `Run ${k} replaced the worker before it ran`);
  }
  await statusShows(page, "^GPU: ");
  assert.equal(await p.code(), code, "the code is kept");
  // The debugger open on case 1: its session lives in the worker, which
  // is kept, past its bound or not.
  await p.testid("step-case-1").click();
  await p.testid("debugger-invocations").locator("button").first().waitFor();
  const before = workers.length;
  assert.equal(await p.run(), "passed");
  assert.equal(workers.length, before, "no worker replaced under an open debugger");
  await p.testid("debugger-step").click();
  await page.waitForTimeout(500);
  assert.equal(await p.testid("debugger-error").count(), 0, "the session still answers");
  // Closed, the next Run replaces the worker again.
  await p.testid("debugger-close").click();
  assert.equal(await p.run(), "passed");
  assert.equal(workers.length, before + 1, "replaced once the debugger closed");
  assert.deepEqual(errors, []);
  await page.close();
});
