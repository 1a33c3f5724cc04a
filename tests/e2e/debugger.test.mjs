// The debugger and judging without WebGPU, in headless Chromium: the Shared
// puzzle stepped to its barrier (the highlighted line, the parked
// invocations, workgroup memory), a failing random case run to its end in
// the debugger, and Map solved with no WebGPU at all.
// Expected values come from the puzzle data, never from a run.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT, serve, launch, openPage, printJourney, choosePrintWorkgroup, printLines, printLinesOf } from "./harness.mjs";

let site, browser;

before(async () => {
  site = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  site?.server.close();
});

/** Case 1 of a puzzle from its TOML: the workgroup size and input `a` (given as `arange`). */
function firstCase(slug) {
  const toml = fs.readFileSync(path.join(ROOT, `puzzles/${slug}/puzzle.toml`), "utf8");
  const block = toml.split("[[case]]")[1];
  const size = Number(block.match(/workgroup_size\s*=\s*\[(\d+)/)[1]);
  const n = Number(block.match(/buffers\.a\s*=\s*\{\s*arange\s*=\s*(\d+)\s*\}/)[1]);
  return { size, a: Array.from({ length: n }, (_, i) => i) };
}

test("the debugger steps Shared to its barrier: the line, the parked invocations, workgroup memory", async () => {
  const { page, p, errors } = await openPage(browser);
  await p.open(site.url("?puzzle=shared"));
  const solution = fs.readFileSync(path.join(ROOT, "shaders/shared.wgsl"), "utf8");
  await p.setCode(solution);
  const barrierLine = solution.split("\n").findIndex((l) => l.includes("workgroupBarrier")) + 1;
  const { size, a } = firstCase("shared");

  await p.testid("step-case-1").click();
  const panel = p.testid("debugger");
  await panel.waitFor();
  // The judge's worker answers with the opened case; the grid follows.
  const cells = p.testid("debugger-invocations").locator("button");
  await cells.first().waitFor();
  assert.equal(await cells.count(), size, "one cell per invocation of the workgroup");
  assert.deepEqual(new Set(await cells.evaluateAll((bs) => bs.map((b) => b.dataset.status))), new Set(["running"]));

  await p.testid("debugger-next-barrier").click();
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="debugger-invocations"] button')].every((b) => b.dataset.status === "waiting"));
  const lines = await cells.evaluateAll((bs) => bs.map((b) => Number(b.dataset.line)));
  assert.deepEqual(lines, Array(size).fill(barrierLine), "every invocation parked at the barrier's line");
  const highlighted = await page.locator(".cm-debug-line").allInnerTexts();
  assert.equal(highlighted.length, 1);
  assert.match(highlighted[0], /workgroupBarrier/);
  assert.match(await p.testid("debugger-state").innerText(), new RegExp(`wait at the barrier on line ${barrierLine}`));
  const smem = await p.testid("debugger-memory-smem").locator(".cell").allInnerTexts();
  assert.deepEqual(smem.slice(0, size).map(Number), a.slice(0, size), "workgroup 0's tile holds its inputs");
  const out = await p.testid("debugger-memory-out").locator(".cell").allInnerTexts();
  assert.ok(out.every((v) => v === "0"), "nothing written to out yet");

  // The next step releases them; the one after reads the tile.
  await p.testid("debugger-step").click();
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="debugger-invocations"] button')].every((b) => b.dataset.status === "running"));
  await p.testid("debugger-invocations").locator("button").nth(2).click();
  await page.waitForFunction(() => /local_invocation_index\s+2/.test(document.querySelector('[data-testid="debugger-variables"]').innerText));

  await p.testid("debugger-run").click();
  await page.waitForFunction(() => /Finished/.test(document.querySelector('[data-testid="debugger-state"]').innerText));
  const finalOut = await p.testid("debugger-memory-out").locator(".cell").allInnerTexts();
  assert.deepEqual(finalOut.map(Number), a.map((x) => x + 10), "out = a + 10 once every workgroup ran");
  await p.testid("debugger-close").click();
  assert.equal(await page.locator(".cm-debug-line").count(), 0, "closing clears the highlight");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a failing random case opens in the debugger too", async () => {
  const { page, p, errors } = await openPage(browser);
  await p.open(site.url("?puzzle=map&seed=1"));
  // Handles the first 20 elements only: seed 1 draws longer arrays.
  await p.setCode(fs.readFileSync(path.join(ROOT, "tests/gpu/solutions/map--first-twenty-only.wgsl"), "utf8"));
  assert.equal(await p.run(), "failed");
  const shown = page.locator('[data-testid^="case-"][data-outcome="mismatch"]').first();
  const n = (await shown.getAttribute("data-testid")).slice("case-".length);
  const a = (await shown.locator(`[data-testid="grid-input-${n}-a"] td`).evaluateAll((tds) => tds.map((td) => Number(td.dataset.value))));
  assert.ok(a.length > 20, "the random case is longer than the 20 elements the shader handles");
  await shown.locator(`[data-testid="step-case-${n}"]`).click();
  await p.testid("debugger").waitFor();
  await p.testid("debugger-run").click();
  await page.waitForFunction(() => /Finished/.test(document.querySelector('[data-testid="debugger-state"]').innerText));
  const out = (await p.testid("debugger-memory-out").locator(".cell").allInnerTexts()).map(Number);
  // What this shader computes, from the case's inputs: a + 10 up to 20, 0 after.
  assert.deepEqual(out, a.map((x, i) => (i < 20 ? x + 10 : 0)));
  assert.deepEqual(errors, []);
  await page.close();
});

test("without WebGPU, Map is solved by emulation on the CPU, and Step still works", async () => {
  const plain = await launch({ webgpu: false });
  try {
    const { page, p, errors } = await openPage(plain);
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, "gpu", { get: () => undefined, configurable: true });
    });
    await p.open(site.url("?puzzle=map"));
    await p.testid("no-webgpu").waitFor({ timeout: 30_000 });
    assert.match(await p.testid("gpu-status").innerText(), /emulated on the CPU/);
    await p.setCode(fs.readFileSync(path.join(ROOT, "shaders/map.wgsl"), "utf8"));
    assert.equal(await p.run(), "passed");
    assert.match(await p.testid("verdict").innerText(), /Solved!.*Emulated on the CPU/s);
    assert.ok((await p.caseStatuses()).every((s) => s === "passed"), "every case passed");
    // A wrong answer fails, with its mismatches.
    await p.setCode(fs.readFileSync(path.join(ROOT, "shaders/map.wgsl"), "utf8").replace("+ 10.0", "+ 11.0"));
    assert.equal(await p.run(), "failed");
    await p.testid("step-case-1").click();
    await p.testid("debugger-run").click();
    await page.waitForFunction(() => /Finished/.test(document.querySelector('[data-testid="debugger-state"]')?.innerText ?? ""));
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await plain.close();
  }
});

test("Show me: a race's finding opens the debugger at the racing access, both invocations highlighted", async () => {
  const { page, p, errors } = await openPage(browser);
  await p.open(site.url("?puzzle=dot-product"));
  // Every invocation clears the shared total at line 16: a write conflict.
  const source = fs.readFileSync(path.join(ROOT, "tests/gpu/solutions/dot-product--everyone-clears-the-sum.wgsl"), "utf8");
  const line = source.split("\n").findIndex((l) => l.trim() === "total = 0.0;") + 1;
  await p.setCode(source);
  assert.equal(await p.run(), "failed");
  const button = page.locator('[data-testid^="show-me-"]').first();
  await button.click();
  await p.testid("debugger").waitFor();
  const cells = p.testid("debugger-invocations").locator("button");
  await cells.first().waitFor();
  // Run on to the access: the invocations stand at its line.
  await page.waitForFunction((l) => [...document.querySelectorAll('[data-testid="debugger-invocations"] button')].some((b) => b.dataset.line === String(l)), line);
  const focused = await cells.evaluateAll((bs) => bs.filter((b) => b.dataset.focus === "true").map((b) => b.dataset.line));
  assert.equal(focused.length, 2, "the two racing invocations are highlighted");
  assert.ok(focused.every((l) => l === String(line)), `both at line ${line}: ${focused}`);
  assert.match(await page.locator(".cm-debug-line").first().innerText(), /total = 0\.0/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("without WebGPU, subgroup shaders are judged at every subgroup size, and the debugger picks a size", async () => {
  const plain = await launch({ webgpu: false });
  try {
    const { page, p, errors } = await openPage(plain);
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, "gpu", { get: () => undefined, configurable: true });
    });
    await p.open(site.url("?puzzle=subgroup-sum"));
    await p.testid("no-webgpu").waitFor({ timeout: 30_000 });
    await p.setCode(fs.readFileSync(path.join(ROOT, "shaders/subgroup-sum.wgsl"), "utf8"));
    assert.equal(await p.run({ timeout: 120_000 }), "passed");
    assert.match(await p.testid("verdict").innerText(), /Solved!.*Emulated on the CPU/s);
    // A kernel that assumes 32 lanes fails, with the sizes named.
    await p.setCode(fs.readFileSync(path.join(ROOT, "tests/gpu/solutions/subgroup-sum--assumes-32-lanes.wgsl"), "utf8"));
    assert.equal(await p.run({ timeout: 120_000 }), "failed");
    assert.match(await p.testid("verdict-lead").innerText(), /depends on the subgroup size: it is right with \d+-lane subgroups but wrong with \d+-lane ones/);
    // The debugger shows subgroups: a size chooser, and each cell's subgroup.
    await p.testid("step-case-1").click();
    const cells = p.testid("debugger-invocations").locator("button");
    await cells.first().waitFor();
    await p.testid("debugger-subgroup-size").selectOption("8");
    await page.waitForFunction(() => /subgroups of 8 lanes/.test(document.querySelector('[data-testid="debugger"] .where')?.innerText ?? ""));
    const subgroups = await cells.evaluateAll((bs) => bs.slice(0, 17).map((b) => b.dataset.subgroup));
    assert.deepEqual(subgroups, [...Array(8).fill("0"), ...Array(8).fill("1"), "2"]);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await plain.close();
  }
});

test("print: a failing Softmax prints each row's maximum, filtered to one workgroup, and a line opens the debugger", async () => {
  const { page, p, errors } = await openPage(browser);
  await p.open(site.url("?puzzle=softmax"));
  const journey = printJourney();
  await p.setCode(journey.source);
  assert.equal(await p.run(), "failed");
  await p.testid("prints-1").waitFor();
  journey.checkAll(await page.evaluate(printLines));
  await page.evaluate(choosePrintWorkgroup, journey.workgroup);
  await page.waitForFunction(printLinesOf, "(1, 0, 0)");
  journey.checkOne(await page.evaluate(printLinesOf, "(1, 0, 0)"));
  // A line opens the debugger at its invocation.
  await p.testid("prints-1").locator('[data-testid="print-debug"]').nth(2).click();
  await p.testid("debugger").waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="debugger-invocations"] button')].some((b) => b.dataset.focus === "true"));
  assert.deepEqual(errors, []);
  await page.close();
});
