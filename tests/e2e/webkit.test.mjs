// The site in Safari's engine: WebKitGTK's MiniBrowser (JavaScriptCore,
// WebKit's layout and wasm, CompressionStream) driven by WebKitWebDriver
// under Xvfb. Debian's WebKitGTK has no GPU behind WebGPU, so this is the
// path of a browser without WebGPU: the notice, Runs emulated on the CPU, a
// failing case's grids, the debugger, saved code and share links.
// Expected values come from the puzzle data, never from a run.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import { spawn } from "node:child_process";
import { ROOT, serve, verdictAfter, pasteIntoEditor, printJourney, choosePrintWorkgroup, printLines, printLinesOf, chapterPuzzles } from "./harness.mjs";

const DRIVER = process.env.WEBKIT_DRIVER || "/usr/bin/WebKitWebDriver";
// Debian ships MiniBrowser with WebKitGTK's 4.1 API (webkit2gtk-driver's) or its 6.0 API.
const MINIBROWSER = process.env.WEBKIT_MINIBROWSER
  || ["webkit2gtk-4.1", "webkitgtk-6.0"].map((api) => `/usr/lib/x86_64-linux-gnu/${api}/MiniBrowser`).find((f) => fs.existsSync(f))
  || "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
const read = (...p) => fs.readFileSync(path.join(ROOT, ...p), "utf8");

/** A free TCP port on 127.0.0.1 for the driver. */
const freePort = () => new Promise((resolve) => {
  const s = net.createServer();
  s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

/**
 * The few W3C WebDriver commands these tests need, over HTTP
 * (https://www.w3.org/TR/webdriver2/): a session, navigation and scripts.
 */
class WebDriver {
  constructor(base) { this.base = base; }
  async call(method, url, body) {
    const res = await fetch(`${this.base}${url}`, { method, headers: { "content-type": "application/json" }, body: body && JSON.stringify(body) });
    const json = await res.json();
    if (!res.ok) throw new Error(`WebDriver ${method} ${url}: ${json.value?.error}: ${json.value?.message}`);
    return json.value;
  }
  async start() {
    const caps = { capabilities: { alwaysMatch: { "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] } } } };
    this.session = (await this.call("POST", "/session", caps)).sessionId;
  }
  go(url) { return this.call("POST", `/session/${this.session}/url`, { url }); }
  /** Runs `fn` (a function's source) in the page with `args`; returns what it returns (a promise is awaited). */
  run(fn, ...args) { return this.call("POST", `/session/${this.session}/execute/async`, { script: `const done = arguments[arguments.length - 1]; Promise.resolve((${fn}).apply(null, Array.from(arguments).slice(0, -1))).then(done, (e) => done({ thrown: String(e) }));`, args }); }
  /** Waits until `fn` returns something truthy in the page; returns it. */
  async until(fn, what, timeout = 60_000, ...args) {
    const end = Date.now() + timeout;
    for (;;) {
      const v = await this.run(fn, ...args);
      if (v && !v.thrown) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}${v?.thrown ? `: ${v.thrown}` : ""}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  /** Presses keys through the Actions API: each entry a character or a WebDriver key code ("\uE004" is Tab), with `mod` held. */
  keys(keys, mod) {
    const actions = [];
    if (mod) actions.push({ type: "keyDown", value: mod });
    for (const k of keys) actions.push({ type: "keyDown", value: k }, { type: "keyUp", value: k });
    if (mod) actions.push({ type: "keyUp", value: mod });
    return this.call("POST", `/session/${this.session}/actions`, { actions: [{ type: "key", id: "keyboard", actions }] });
  }
  stop() { return this.session && this.call("DELETE", `/session/${this.session}`); }
}

let site, driverProcess, wd;
const started = Date.now();

before(async () => {
  for (const f of [DRIVER, MINIBROWSER]) if (!fs.existsSync(f)) throw new Error(`no ${f}: install Debian's webkit2gtk-driver and xvfb (scripts/ensure-tools.sh does)`);
  site = await serve();
  const port = await freePort();
  driverProcess = spawn("xvfb-run", ["-a", DRIVER, `--port=${port}`], { stdio: "ignore", detached: true });
  wd = new WebDriver(`http://127.0.0.1:${port}`);
  const end = Date.now() + 30_000;
  for (;;) {
    try { await wd.call("GET", "/status"); break; } catch (e) {
      if (Date.now() > end) throw new Error(`WebKitWebDriver did not start: ${e.message}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  await wd.start();
});
after(async () => {
  await wd?.stop().catch(() => {});
  if (driverProcess) try { process.kill(-driverProcess.pid); } catch { /* already gone */ }
  site?.server.close();
  console.log(`WebKit: ${((Date.now() - started) / 1000).toFixed(1)} s for this file`);
});

/** Opens a puzzle and waits for its editor. */
async function open(query) {
  await wd.go(site.url(query));
  await wd.until(() => Boolean(document.querySelector('[data-testid="editor"] .cm-editor')?.editorView), "the editor");
}
const code = () => wd.run(() => document.querySelector('[data-testid="editor"] .cm-editor').editorView.state.doc.toString());
/** Pastes `text` into the editor ([`pasteIntoEditor`]). */
async function setCode(text) {
  await wd.run(pasteIntoEditor, text);
  assert.equal(await code(), text);
}
/** Runs so far, once the verdict is on the page (the views' module, fetched after editor ready, draws it). */
const finishedRuns = async () => {
  await wd.until(() => Boolean(document.querySelector('[data-testid="verdict"]')), "the verdict (the views' module)", 30_000);
  return wd.run(() => Number(document.querySelector('[data-testid="verdict"]').dataset.run));
};
/** Clicks Run and waits for this Run's verdict; returns its status and text. */
async function run() {
  const before = await finishedRuns();
  await wd.run(() => document.querySelector('[data-testid="run-button"]').click());
  return wd.until(verdictAfter, "the verdict", 120_000, before);
}
/** Clicks the element once it is on the page (what the views' module draws comes after editor ready). */
const click = async (id) => {
  await wd.until((id) => Boolean(document.querySelector(`[data-testid="${id}"]`)), `the element ${id}`, 30_000, id);
  return wd.run((id) => document.querySelector(`[data-testid="${id}"]`).click(), id);
};

test("WebKit: the page says it has no WebGPU, and judges Runs on the CPU", async () => {
  await open("?puzzle=map");
  const notice = await wd.until(() => document.querySelector('[data-testid="no-webgpu"]')?.innerText, "the no-WebGPU notice", 30_000);
  assert.match(notice, /WebGPU/);
  await setCode(read("shaders/map.wgsl"));
  const verdict = await run();
  assert.equal(verdict.status, "passed");
  assert.match(verdict.text, /Emulated on the CPU/);
});

// The Applications chapter, solved on the CPU: pictures in, pictures out,
// every case judged by the interpreter (WebKitGTK has no WebGPU); and the
// chapter "Numbers and formats", whose packed halves, bfloat16 and FP8 bits
// and int8 dot products the interpreter computes as WGSL defines them.
for (const slug of [...chapterPuzzles("Applications"), ...chapterPuzzles("Numbers and formats")]) {
  test(`WebKit: ${slug}: the reference solution solves it, emulated on the CPU`, async () => {
    await open(`?puzzle=${slug}`);
    await setCode(read("shaders", `${slug}.wgsl`));
    const verdict = await run();
    assert.equal(verdict.status, "passed", verdict.text);
    assert.match(verdict.text, /Emulated on the CPU/);
  });
}

test("WebKit: the compiled code shows a kernel in MSL without WebGPU", async () => {
  await open("?puzzle=tree-reduction");
  await setCode(read("shaders/tree-reduction.wgsl"));
  await wd.until(() => Boolean(document.querySelector('[data-testid="compiled"]')), "the compiled-code view", 30_000);
  await wd.run(() => { document.querySelector('[data-testid="compiled"]').open = true; });
  await click("compiled-show");
  const text = await wd.until(() => document.querySelector('[data-testid="compiled-text"][data-form="msl"]')?.innerText, "the MSL", 30_000);
  assert.ok(text.includes("threadgroup_barrier") && text.includes("kernel"), text.slice(0, 400));
});

test("WebKit: a case's steps play frame by frame on the CPU", async () => {
  await open("?puzzle=jacobi");
  await setCode(read("shaders/jacobi.wgsl"));
  assert.equal((await run()).status, "passed");
  await click("play-case-3");
  const done = await wd.until(() => {
    const f = document.querySelector('[data-testid="player-frames-3"]');
    return f?.dataset.frame === "6" && { frames: f.dataset.frames, step: document.querySelector('[data-testid="player-step-3"]').innerText };
  }, "the seventh frame", 60_000);
  assert.deepEqual(done, { frames: "7", step: "step 7 of 7" });
});

test("WebKit: a failing case shows its grids with the mismatches marked, and a race its finding", async () => {
  await open("?puzzle=broadcast");
  await setCode(read("tests/gpu/solutions/broadcast--swapped-a-b.wgsl"));
  assert.equal((await run()).status, "failed");
  // The first shown case that failed: its expected and actual grids, the wrong cells marked.
  const grids = await wd.run(() => {
    const failed = [...document.querySelectorAll('[data-testid^="case-"]')].map((e) => e.dataset.testid.slice(5))
      .find((n) => document.querySelector(`[data-testid="case-${n}"]`).dataset.status !== "passed" && document.querySelector(`[data-testid="grid-expected-${n}"] td`));
    const cells = (id) => [...document.querySelectorAll(`[data-testid="${id}"] td`)].map((td) => td.dataset.value);
    return { n: failed, expected: cells(`grid-expected-${failed}`), actual: cells(`grid-actual-${failed}`), marked: document.querySelectorAll(`[data-testid="grid-actual-${failed}"] td.mismatch`).length };
  });
  assert.ok(grids.expected.length > 0 && grids.expected.length === grids.actual.length, JSON.stringify(grids));
  assert.notDeepEqual(grids.actual, grids.expected);
  assert.ok(grids.marked > 0, "mismatching cells are marked");
  // A race, found by the emulated judge, leads the verdict as one finding.
  await open("?puzzle=dot-product");
  await setCode(read("tests/gpu/solutions/dot-product--accumulates-into-one-element.wgsl"));
  const raced = await run();
  assert.equal(raced.status, "failed");
  assert.match(raced.text, /lost update: `out\[0\]`/);
});

test("WebKit: a subgroup shader is judged at every subgroup size, and the debugger steps a workgroup", async () => {
  await open("?puzzle=subgroup-sum");
  await setCode(read("shaders/subgroup-sum.wgsl"));
  const verdict = await run();
  assert.equal(verdict.status, "passed", verdict.text);
  assert.match(verdict.text, /Emulated on the CPU/);
  await open("?puzzle=shared");
  await setCode(read("shaders/shared.wgsl"));
  await click("step-case-1");
  await wd.until(() => document.querySelectorAll('[data-testid="debugger-invocations"] button').length, "the debugger's invocations");
  await click("debugger-next-barrier");
  const state = await wd.until(() => {
    const cells = [...document.querySelectorAll('[data-testid="debugger-invocations"] button')];
    return cells.every((b) => b.dataset.status === "waiting") && document.querySelector('[data-testid="debugger-state"]').innerText;
  }, "every invocation at the barrier");
  assert.match(state, /wait at the barrier on line \d+/);
});

test("WebKit: print: a failing Softmax prints each row's maximum (emulated), filtered to one workgroup, and a line opens the debugger", async () => {
  await open("?puzzle=softmax");
  const journey = printJourney();
  await setCode(journey.source);
  const verdict = await run();
  assert.equal(verdict.status, "failed", verdict.text);
  journey.checkAll(await wd.until(printLines, "case 1's print lines"));
  await wd.run(choosePrintWorkgroup, journey.workgroup);
  journey.checkOne(await wd.until(printLinesOf, "workgroup 1's lines", 60_000, "(1, 0, 0)"));
  await wd.run(() => document.querySelectorAll('[data-testid="prints-1"] [data-testid="print-debug"]')[2].click());
  await wd.until(() => [...document.querySelectorAll('[data-testid="debugger-invocations"] button')].some((b) => b.dataset.focus === "true"), "the debugger at the line's invocation");
});

test("WebKit: code is kept across a reload, and a share link (CompressionStream) opens", async () => {
  await open("?puzzle=guards");
  await setCode("// my work in progress\n");
  await new Promise((r) => setTimeout(r, 700)); // past the save delay
  await open("?puzzle=guards");
  assert.equal(await code(), "// my work in progress\n");

  const shared = read("shaders/map.wgsl");
  await open("?puzzle=map");
  await setCode(shared);
  await click("share-button");
  const link = await wd.until(() => {
    const v = document.querySelector('[data-testid="share-link"]')?.value ?? "";
    return /#code=[A-Za-z0-9_-]+$/.test(v) && v;
  }, "the share link");
  await wd.go("about:blank");
  await open(link.slice(link.indexOf("?")));
  await wd.until(() => Boolean(document.querySelector('[data-testid="shared-banner"]')), "the shared-code banner");
  assert.equal(await code(), shared);
});

test("WebKit: progress moves to another browser: exported as one file, imported after the site's storage is cleared", async () => {
  // One session runs the whole file: start from an empty profile, so that
  // the export holds this test's progress only.
  await wd.go(site.url());
  await wd.run(() => localStorage.clear());
  await open("?puzzle=map");
  await setCode(read("shaders/map.wgsl"));
  assert.equal((await run()).status, "passed");
  await wd.go(site.url());
  await wd.until(() => Boolean(document.querySelector('[data-testid="export-progress"]')), "the export button");
  // The export is a Blob given to a download link: its text is taken as
  // the page hands it over, and the download itself is left out.
  await wd.run(() => {
    const create = URL.createObjectURL;
    URL.createObjectURL = (blob) => { blob.text().then((t) => { window.__exported = t; }); return create.call(URL, blob); };
    HTMLAnchorElement.prototype.click = function () { window.__downloadName = this.download; };
  });
  await click("export-progress");
  const text = await wd.until(() => window.__exported, "the exported file");
  const exported = JSON.parse(text);
  assert.match(await wd.run(() => window.__downloadName), /^gpu-puzzles-progress-\d{4}-\d{2}-\d{2}\.json$/);
  assert.equal(exported.format, "gpu-puzzles-progress");
  assert.equal(exported.puzzles.map.solved, true);
  // Another browser: this one with its storage cleared, then the file
  // chosen in the import's file input (WebDriver's Element Send Keys).
  await wd.run(() => localStorage.clear());
  await wd.go(site.url());
  await wd.until(() => /^0 of \d+ solved/.test(document.querySelector('[data-testid="solved-count"]')?.innerText ?? ""), "nothing solved");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "progress-")), "progress.json");
  fs.writeFileSync(file, text);
  const found = await wd.call("POST", `/session/${wd.session}/element`, { using: "css selector", value: '[data-testid="import-progress-file"]' });
  const element = Object.values(found)[0];
  await wd.call("POST", `/session/${wd.session}/element/${element}/value`, { text: file });
  const said = await wd.until(() => { const t = document.querySelector('[data-testid="progress-status"]')?.innerText ?? ""; return /Imported/.test(t) && t; }, "the import's status");
  assert.match(said, /Imported code for Map, and solved marks for Map\./);
  assert.match(await wd.run(() => document.querySelector('[data-testid="solved-count"]').innerText), /^1 of \d+ solved/);
  await open("?puzzle=map");
  assert.equal(await code(), read("shaders/map.wgsl"));
});

test("WebKit: a tablet's width (1024 pixels) and a phone's (as narrow as MiniBrowser goes): nothing runs past the screen or out of its column", async () => {
  const rect = `/session/${wd.session}/window/rect`;
  const before = await wd.call("GET", rect);
  try {
    for (const [width, height] of [[1024, 768], [390, 844]]) {
      await wd.call("POST", rect, { width, height });
      await open("?puzzle=gaussian-blur");
      await setCode(read("shaders/gaussian-blur.wgsl"));
      assert.equal((await run()).status, "passed");
      const found = await wd.run(() => {
        const width = document.documentElement.clientWidth;
        const wide = [];
        for (const el of document.body.querySelectorAll("*")) {
          const r = el.getBoundingClientRect();
          const column = el.closest(".columns > *");
          const limit = column ? Math.min(width, column.getBoundingClientRect().right) : width;
          if (r.width === 0 || r.right <= limit + 1) continue;
          let p = el.parentElement, scrolls = false;
          while (p && p !== document.body) {
            const o = getComputedStyle(p).overflowX;
            if ((o === "auto" || o === "scroll" || o === "hidden") && p.getBoundingClientRect().right <= limit + 1) { scrolls = true; break; }
            p = p.parentElement;
          }
          if (!scrolls) wide.push(`${el.tagName.toLowerCase()}.${String(el.className)}: right ${Math.round(r.right)} > ${Math.round(limit)}`);
        }
        return { width, pageWidth: document.documentElement.scrollWidth, wide: wide.slice(0, 8) };
      });
      // MiniBrowser's toolbar keeps its window at least 447 pixels wide.
      assert.ok(found.width <= Math.max(width, 447) + 20, `the window's width: ${found.width} for ${width}`);
      assert.ok(found.pageWidth <= found.width, `the page scrolls sideways at ${width}: ${JSON.stringify(found)}`);
      assert.deepEqual(found.wide, [], `at ${width} pixels`);
    }
  } finally {
    await wd.call("POST", rect, { width: before.width, height: before.height });
  }
});

test("WebKit: the whole flow works by keyboard alone", async () => {
  const TAB = "\uE004", ENTER = "\uE007", CONTROL = "\uE009";
  await wd.go(site.url());
  await wd.until(() => Boolean(document.querySelector('[data-testid="puzzle-list"] a')), "the list");
  // Tab to the first puzzle and open it.
  for (let i = 0; i < 10 && !(await wd.run(() => document.activeElement?.closest('[data-testid="puzzle-list"]') !== null)); i++) await wd.keys([TAB]);
  await wd.keys([ENTER]);
  await wd.until(() => /^1\. Map/.test(document.querySelector('[data-testid="puzzle-title"]')?.textContent ?? ""), "Map's page");
  await wd.until(() => Boolean(document.querySelector('[data-testid="editor"] .cm-editor')?.editorView), "the editor");
  // Tab into the editor, and run with Ctrl+Enter.
  const inEditor = () => wd.run(() => document.activeElement?.classList.contains("cm-content"));
  for (let i = 0; i < 30 && !(await inEditor()); i++) await wd.keys([TAB]);
  assert.ok(await inEditor(), "the editor takes focus by Tab");
  await setCode(read("shaders/map.wgsl"));
  const before = await finishedRuns();
  await wd.keys([ENTER], CONTROL);
  const { status } = await wd.until(verdictAfter, "the verdict", 60_000, before);
  assert.equal(status, "passed");
});
