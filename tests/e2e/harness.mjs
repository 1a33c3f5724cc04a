// Shared pieces of the browser tests: a static file server for dist/ under a
// sub-path, Chromium with (or without) WebGPU, and a page object that drives
// the site as a student would.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DIST = process.env.GPU_PUZZLES_DIST || path.join(ROOT, "dist");
/** The site is served under this sub-path, as a workshop host might. */
export const BASE = "/workshop/gpu-puzzles/";

/** The puzzles in the order of `puzzles/index.toml` (its chapters' `puzzles = [...]` lists, one after another). */
export function puzzleOrder() {
  return [...fs.readFileSync(path.join(ROOT, "puzzles/index.toml"), "utf8").matchAll(/^puzzles = \[(.*)\]$/gm)]
    .flatMap((m) => m[1].match(/"([a-z0-9-]+)"/g).map((s) => s.slice(1, -1)));
}

/** The slugs of the chapter titled `title` in puzzles/index.toml, in order. */
export function chapterPuzzles(title) {
  const index = fs.readFileSync(path.join(ROOT, "puzzles/index.toml"), "utf8");
  const at = index.indexOf(`title = "${title}"`);
  if (at < 0) throw new Error(`puzzles/index.toml has no chapter "${title}"`);
  const list = index.slice(at).match(/^puzzles = \[(.*)\]$/m);
  return list[1].match(/"([a-z0-9-]+)"/g).map((s) => s.slice(1, -1));
}

/**
 * In the page, for any driver's wait: the verdict of a Run that finished
 * after `before` Runs (the verdict's data-run counts finished Runs, since a
 * quick Run never shows `running`), as `{ status, text }`, or false.
 */
export const verdictAfter = (before) => {
  const v = document.querySelector('[data-testid="verdict"]');
  return Boolean(v) && Number(v.dataset.run) > before && ["passed", "failed", "error"].includes(v.dataset.status) && { status: v.dataset.status, text: v.innerText };
};

/**
 * In the page: replaces the editor's text as a paste does, one CodeMirror
 * transaction marked as a paste (not re-indented). Drivers that speak
 * WebDriver type one character per key press, and typed text is re-indented.
 */
export const pasteIntoEditor = (text) => {
  const view = document.querySelector('[data-testid="editor"] .cm-editor').editorView;
  view.focus();
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: "input.paste" });
};

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".png": "image/png", ".json": "application/json" };

/** Serves `dist` (DIST by default) under BASE on 127.0.0.1 (a plain static server: no rewrites). */
export async function serve(dist = DIST) {
  if (!fs.existsSync(path.join(dist, "index.html"))) throw new Error(`no built site in ${dist}: run scripts/build-site.sh first`);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (!url.pathname.startsWith(BASE)) { res.writeHead(404); res.end("not found"); return; }
    let rel = decodeURIComponent(url.pathname.slice(BASE.length)) || "index.html";
    if (rel.endsWith("/")) rel += "index.html";
    const file = path.join(dist, rel);
    if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404); res.end("not found"); return; }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { server, url: (q = "") => `${origin}${BASE}${q}` };
}

const QUIET = ["--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic"];
/**
 * Whether the suite runs on a hardware GPU (GPU_PUZZLES_ADAPTER=hardware, as
 * scripts/device-browser.sh sets on a machine with one): Chromium then takes
 * the GPU's own Vulkan adapter instead of SwiftShader.
 */
export const HARDWARE = process.env.GPU_PUZZLES_ADAPTER === "hardware";
/**
 * Chromium flags that give headless Chromium a WebGPU adapter: SwiftShader,
 * or on a hardware GPU its Vulkan driver. There, as tried on an NVIDIA H100
 * with no display: GL must run on the GPU too (ANGLE on Vulkan), else
 * Chromium counts the machine as software-only and disables WebGPU; and
 * Chromium's own Vulkan instance must not ask for surface extensions, which
 * a driver without a display lacks (vkCreateInstance fails, -7), else
 * Dawn's Vulkan adapters are not offered. The blocklist, which knows no
 * server GPUs, is ignored.
 */
export const WEBGPU_FLAGS = HARDWARE
  ? [
      "--enable-unsafe-webgpu",
      "--enable-features=Vulkan,VulkanFromANGLE,DefaultANGLEVulkan",
      "--use-angle=vulkan",
      "--use-vulkan=native",
      "--disable-vulkan-surface",
      "--ignore-gpu-blocklist",
    ]
  : ["--enable-unsafe-webgpu", "--use-webgpu-adapter=swiftshader", "--enable-features=Vulkan"];

/** Launches Debian's Chromium, with WebGPU unless `webgpu` is false. */
export async function launch({ webgpu = true, extraArgs = [] } = {}) {
  const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
  if (!fs.existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}: install Debian's chromium package`);
  return chromium.launch({ executablePath, headless: true, args: [...QUIET, ...(webgpu ? WEBGPU_FLAGS : []), ...extraArgs] });
}

/** A page object for one puzzle page. */
export class PuzzlePage {
  constructor(page) { this.page = page; }
  testid(id) { return this.page.locator(`[data-testid="${id}"]`); }

  async open(url) {
    await this.page.goto(url);
    await this.testid("editor").locator(".cm-content").waitFor();
  }

  /** Replaces the editor's text the way a student pastes: select all, insert. */
  async setCode(text) {
    const content = this.testid("editor").locator(".cm-content");
    await content.click();
    await this.page.keyboard.press("ControlOrMeta+A");
    await this.page.keyboard.press("Delete");
    await this.page.keyboard.insertText(text);
  }

  async code() {
    return this.testid("editor").locator(".cm-editor").evaluate((el) => el.editorView.state.doc.toString());
  }

  /** How many Runs have finished on the page (the verdict's data-run). */
  async finishedRuns() {
    return Number(await this.testid("verdict").getAttribute("data-run"));
  }

  /**
   * Clicks Run and waits for this Run's verdict; returns its data-status. A
   * quick Run never shows `running`, so the verdict's data-run (Runs
   * finished) tells its verdict from the one before.
   */
  async run({ timeout = 60_000 } = {}) {
    const before = await this.finishedRuns();
    await this.testid("run-button").click();
    await this.page.waitForFunction(verdictAfter, before, { timeout });
    return this.testid("verdict").getAttribute("data-status");
  }

  async caseStatuses() {
    return this.page.$$eval('[data-testid^="case-"]', (els) => els.map((e) => e.dataset.status));
  }

  async gridValues(id) {
    return this.page.$$eval(`[data-testid="${id}"] td`, (tds) => tds.map((td) => td.dataset.value));
  }
}

/**
 * A new page in `target` (a browser or a browser context) with a page object,
 * collecting uncaught page errors and Content-Security-Policy violations in
 * `errors`, so a test can assert there were none.
 */
export async function openPage(target) {
  const page = await target.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.exposeFunction("reportCspViolation", (what) => errors.push(`CSP violation: ${what}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => window.reportCspViolation(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return { page, p: new PuzzlePage(page), errors };
}

/**
 * The print journey of every engine: Softmax's held kernel that drops the
 * columns past the workgroup (it fails), with `print(workgroup_id.x,
 * row_max);` added after the row maximum is read. Case 1's expected lines
 * come from its TOML (the row maxima computed here, never from a run):
 * `checkAll` takes every line of case 1's log ([`printLines`]), `checkOne`
 * the lines left once workgroup `workgroup` is chosen.
 */
export function printJourney() {
  const lines = fs.readFileSync(path.join(ROOT, "tests/gpu/solutions/softmax--row-longer-than-workgroup-dropped.wgsl"), "utf8").split("\n");
  const at = lines.findIndex((l) => l.trim() === "let row_max = smem[0];");
  assert.ok(at > 0, "the held kernel still reads the row maximum");
  lines.splice(at + 1, 0, "    print(workgroup_id.x, row_max);");
  const block = fs.readFileSync(path.join(ROOT, "puzzles/softmax/puzzle.toml"), "utf8").split("[[case]]")[1];
  const size = Number(block.match(/workgroup_size\s*=\s*\[(\d+)/)[1]);
  const cols = Number(block.match(/cols\s*=\s*(\d+)/)[1]);
  const values = block.match(/values\s*=\s*\[([^\]]*)\]/)[1].split(",").map(Number);
  const maxima = [];
  for (let r = 0; r * cols < values.length; r++) maxima.push(Math.max(...values.slice(r * cols, (r + 1) * cols)));
  const line = String(at + 2);
  const expected = (row) => `workgroup_id.x = ${row}u, row_max = ${maxima[row].toFixed(1)}`;
  return {
    source: lines.join("\n"),
    workgroup: "1,0,0",
    checkAll(got) {
      assert.equal(got.length, size * maxima.length, `one line per invocation: ${JSON.stringify(got)}`);
      for (const l of got) {
        assert.equal(l.line, line);
        const row = Number(l.workgroup.slice(1).split(",")[0]);
        assert.ok(l.text.includes(expected(row)), `${l.text} holds ${expected(row)}`);
      }
    },
    checkOne(got) {
      assert.equal(got.length, size, `workgroup 1's invocations only: ${JSON.stringify(got)}`);
      assert.ok(got.every((l) => l.workgroup === "(1, 0, 0)" && l.text.includes(expected(1))), JSON.stringify(got));
    },
  };
}

/** In the page: case 1's print lines (text, workgroup, line); null while there are none. */
export const printLines = () => {
  const lines = [...document.querySelectorAll('[data-testid="prints-1"] [data-testid="print-line"]')];
  return lines.length ? lines.map((l) => ({ text: l.innerText, workgroup: l.dataset.workgroup, line: l.dataset.line })) : null;
};

/** In the page: case 1's print lines once every one is in workgroup `w` (`"(x, y, z)"`); null before. */
export const printLinesOf = (w) => {
  const lines = [...document.querySelectorAll('[data-testid="prints-1"] [data-testid="print-line"]')];
  return lines.length && lines.every((l) => l.dataset.workgroup === w) ? lines.map((l) => ({ text: l.innerText, workgroup: l.dataset.workgroup, line: l.dataset.line })) : null;
};

/** In the page: chooses workgroup `value` (`"x,y,z"`) in case 1's print filter. */
export const choosePrintWorkgroup = (value) => {
  const select = document.querySelector('[data-testid="prints-workgroup-1"]');
  select.value = value;
  select.dispatchEvent(new Event("change", { bubbles: true }));
  return true;
};

/**
 * The held solutions of `tests/gpu/solutions/` (`<slug>--<label>.wgsl`), in
 * file-name order: `{ file, slug, source, expect, message }`. The first line
 * `// expect: …` is the native judge's verdict on the file, which
 * tests/gpu/puzzles.rs checks on lavapipe (and the device's GPU); the
 * optional second line `// message: …` is text every case that did not
 * pass must show. The browser suites hold each engine to the same.
 */
export function heldSolutions() {
  const dir = path.join(ROOT, "tests/gpu/solutions");
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".wgsl")).sort();
  if (files.length === 0) throw new Error(`no held solutions in ${dir}`);
  return files.map((file) => {
    const source = fs.readFileSync(path.join(dir, file), "utf8");
    const [first, second] = source.split("\n");
    const expect = first.match(/^\/\/ expect:(.*)$/)?.[1].trim();
    if (!expect) throw new Error(`${file}: the first line must be \`// expect: …\``);
    const message = second.match(/^\/\/ message:(.*)$/)?.[1].trim() ?? null;
    return { file, slug: file.split("--")[0], source, expect, message };
  });
}

/**
 * In the page, after a Run: the verdict, every case's outcome (its
 * data-outcome), words and whether it is a random one, whether the random
 * cases passed, and the first compiler message with its place (line and
 * column from 1).
 */
export const shownOutcome = () => {
  const d = document.querySelector('[data-testid="diagnostics"] li');
  const randomLine = document.querySelector('[data-testid="random-cases"]');
  return {
    verdict: document.querySelector('[data-testid="verdict"]')?.dataset.status,
    // A failing random case is shown after the random cases' line.
    cases: [...document.querySelectorAll('[data-testid^="case-"]')].map((e) => ({
      name: e.dataset.testid,
      outcome: e.dataset.outcome,
      detail: e.querySelector(".detail")?.innerText ?? "",
      random: Boolean(randomLine && randomLine.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING),
    })),
    random: document.querySelector('[data-testid="random-cases"]')?.dataset.status ?? null,
    diagnostic: d ? { line: Number(d.dataset.line), column: Number(d.dataset.column), text: d.innerText } : null,
  };
};

/**
 * Why the page's outcome ([`shownOutcome`]) does not meet a held solution's
 * expectation, or null when it does: the same rules as
 * `check_expectation` in tests/gpu/puzzles.rs. Skipped and omitted cases
 * (a performance case after a failure, a hardware-only one on a software
 * adapter) say nothing about the shader. `failed in random cases` is held
 * to its written cases passing: which random draw catches it is the native
 * seed sweep's to say.
 */
export function unmetExpectation({ expect, message }, shown) {
  // The written and hidden cases, as the native judge's results hold them.
  const judged = shown.cases.filter((c) => !c.random && c.outcome !== "skipped" && c.outcome !== "omitted");
  const said = () => judged.map((c) => `${c.name} ${c.outcome}: ${c.detail.slice(0, 300)}`).join("\n") + (shown.diagnostic ? `\ncompiler at ${shown.diagnostic.line}:${shown.diagnostic.column}: ${shown.diagnostic.text.slice(0, 300)}` : "");
  if (judged.length === 0) return `no case was judged (verdict ${shown.verdict})`;
  let [kind, some] = [expect, false];
  if (expect.endsWith(" in some cases") && expect !== "failed in some cases") [kind, some] = [expect.slice(0, -" in some cases".length), true];
  if (message !== null) {
    // The page tells a finding in full once and refers later cases with the
    // same mistake back to it ("the same mistake as in Case 2").
    const words = (c) => `${c.detail}\n${shown.diagnostic?.text ?? ""}`;
    const told = judged.filter((c) => kind === "passed" || c.outcome !== "passed");
    const lacking = told.find((c) => !words(c).includes(message) && !/the same mistake as in Case \d+/.test(c.detail));
    if (lacking || (told.length > 0 && !told.some((c) => words(c).includes(message)))) return `${(lacking ?? told[0]).name} does not say \`${message}\`:\n${said()}`;
  }
  const all = (f) => (some ? judged.some((c) => f(c)) && judged.every((c) => f(c) || c.outcome === "passed") : judged.every((c) => f(c)));
  const is = (outcome) => (c) => c.outcome === outcome;
  let ok;
  if (kind === "passed") ok = shown.verdict === "passed";
  else if (kind === "failed") ok = judged.some((c) => c.outcome !== "passed") && all((c) => c.outcome !== "compile-error" && c.outcome !== "config-error");
  else if (kind === "failed in random cases") ok = judged.every(is("passed"));
  else if (["config-error", "compile-error", "memory-error", "over-budget", "without-technique"].includes(kind)) ok = all(is(kind));
  else if (kind.startsWith("runaway-loop at ")) {
    const line = kind.slice("runaway-loop at ".length);
    ok = all((c) => c.outcome === "runaway-loop" && new RegExp(`\\bline ${line}\\b`).test(c.detail));
  } else if (kind.startsWith("compile-error at ")) {
    const [line, column] = kind.slice("compile-error at ".length).split(":").map(Number);
    ok = all(is("compile-error")) && shown.diagnostic?.line === line && shown.diagnostic?.column === column;
  } else return `unknown expectation \`${expect}\``;
  return ok ? null : `expected ${expect}, the page showed verdict ${shown.verdict}:\n${said()}`;
}
