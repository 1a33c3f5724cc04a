// Robustness in the browser: mutated shaders through the page, and memory
// over hundreds of runs. Figures are printed for the closing notes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT, serve, launch, PuzzlePage } from "./harness.mjs";

let site, browser;
before(async () => {
  site = await serve();
  browser = await launch({ extraArgs: ["--js-flags=--expose-gc", "--enable-precise-memory-info"] });
});
after(async () => {
  await browser?.close();
  site?.server.close();
});

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

test("memory stays flat over 500 runs (JS heap and live GPU buffers)", async () => {
  const page = await browser.newPage();
  // Count GPU buffers created and destroyed by the page.
  await page.addInitScript(() => {
    window.__buffers = { created: 0, destroyed: 0 };
    const create = GPUDevice.prototype.createBuffer;
    GPUDevice.prototype.createBuffer = function (d) {
      window.__buffers.created++;
      const b = create.call(this, d);
      const destroy = b.destroy.bind(b);
      b.destroy = () => { window.__buffers.destroyed++; return destroy(); };
      return b;
    };
  });
  const p = new PuzzlePage(page);
  // Map: every Run takes the page's whole path (compile, instrumented and
  // plain dispatches, random cases, heat maps) with the fewest shaders to
  // compile, so 500 Runs stay within CI's time.
  await p.open(site.url("?puzzle=map"));
  await p.setCode(fs.readFileSync(path.join(ROOT, "shaders/map.wgsl"), "utf8"));
  const sample = async () => page.evaluate(() => { window.gc(); return { heap: performance.memory.usedJSHeapSize, live: window.__buffers.created - window.__buffers.destroyed, created: window.__buffers.created }; });
  for (let i = 0; i < 20; i++) assert.equal(await p.run(), "passed");
  const early = await sample();
  for (let i = 0; i < 480; i++) assert.equal(await p.run(), "passed");
  const late = await sample();
  const mb = (x) => (x / 2 ** 20).toFixed(2);
  console.log(`after 20 runs: JS heap ${mb(early.heap)} MB, live GPU buffers ${early.live}; after 500 runs: JS heap ${mb(late.heap)} MB, live GPU buffers ${late.live} (${late.created} created)`);
  assert.ok(late.live <= early.live, `live GPU buffers grew: ${early.live} → ${late.live}`);
  assert.ok(late.heap - early.heap < 8 * 2 ** 20, `the JS heap grew by ${mb(late.heap - early.heap)} MB`);
  await page.close();
});
