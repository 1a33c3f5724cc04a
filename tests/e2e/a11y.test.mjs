// Accessibility, audited: axe-core (the well-kept engine behind Lighthouse's
// and most browsers' audits, through @axe-core/playwright) checks every state
// a student meets against WCAG 2.1 A and AA, in the light theme and in the
// dark one, in headless Chromium with WebGPU: the list, a puzzle before a
// Run and after a failing one (grids, images, heat maps, findings), the
// print log, the debugger, the compiled code, and the capstone. A serious or critical
// violation fails the test, with the rule, the elements and axe's advice.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { ROOT, serve, launch, PuzzlePage, printJourney } from "./harness.mjs";

let site, browser;
before(async () => {
  site = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  site?.server.close();
});

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** axe's serious and critical violations of the page as it is, as lines. */
async function audit(page, state, theme) {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  // A11Y_DUMP=FILE: every violation, of any impact, as a JSON line.
  if (process.env.A11Y_DUMP) fs.appendFileSync(process.env.A11Y_DUMP, JSON.stringify({ theme, state, violations }) + "\n");
  const counted = violations.map((v) => `${v.impact} ${v.id} (${v.nodes.length})`);
  console.log(`${theme}, ${state}: ${counted.length ? counted.join(", ") : "no violations"}`);
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${theme}, ${state}: ${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => `${n.target.join(" ")}: ${n.failureSummary.split("\n").slice(1, 2).join(" ").trim()}`).join("; ")}${v.nodes.length > 3 ? ` (and ${v.nodes.length - 3} more)` : ""}`);
}

for (const theme of ["light", "dark"]) {
  test(`every state a student meets has no serious or critical WCAG 2.1 AA violation, ${theme} theme`, async () => {
    const context = await browser.newContext({ colorScheme: theme });
    const page = await context.newPage();
    const p = new PuzzlePage(page);
    const found = [];
    // The list.
    await page.goto(site.url());
    await page.locator('[data-testid="puzzle-list"]').waitFor();
    found.push(...(await audit(page, "the list", theme)));
    // A puzzle before its first Run, then after a failing one: Broadcast's
    // held kernel that swaps its inputs (grids with wrong cells, findings,
    // heat maps opened).
    await p.open(site.url("?puzzle=broadcast"));
    found.push(...(await audit(page, "a puzzle before a Run", theme)));
    await p.setCode(fs.readFileSync(path.join(ROOT, "tests/gpu/solutions/broadcast--swapped-a-b.wgsl"), "utf8"));
    assert.equal(await p.run(), "failed");
    const closed = page.locator(".heatmap-details:not([open]) summary");
    if (await closed.count()) await closed.first().click();
    found.push(...(await audit(page, "a failing Run", theme)));
    // Images of 2-D buffers, a region opened.
    await p.open(site.url("?puzzle=box-blur"));
    await p.setCode(fs.readFileSync(path.join(ROOT, "tests/gpu/solutions/box-blur--assumes-power-of-two.wgsl"), "utf8"));
    assert.equal(await p.run(), "failed");
    await p.testid("image-difference-8").locator("canvas").click({ position: { x: 5, y: 5 } });
    found.push(...(await audit(page, "images with a region open", theme)));
    // A photograph and its performance figures: Separable Gaussian Blur
    // solved (the camera man blurred, the CPU beside the GPU).
    await p.open(site.url("?puzzle=gaussian-blur"));
    await p.setCode(fs.readFileSync(path.join(ROOT, "shaders/gaussian-blur.wgsl"), "utf8"));
    assert.equal(await p.run({ timeout: 240_000 }), "passed");
    found.push(...(await audit(page, "a photograph and performance figures", theme)));
    // The player, paused on a step: Jacobi's seven steps.
    await p.open(site.url("?puzzle=jacobi"));
    await p.setCode(fs.readFileSync(path.join(ROOT, "shaders/jacobi.wgsl"), "utf8"));
    assert.equal(await p.run(), "passed");
    await p.testid("play-case-3").click();
    await p.testid("player-frames-3").waitFor({ timeout: 120_000 });
    await p.testid("player-back-3").click();
    found.push(...(await audit(page, "the player", theme)));
    // The print log.
    const journey = printJourney();
    await p.open(site.url("?puzzle=softmax"));
    await p.setCode(journey.source);
    await p.run();
    found.push(...(await audit(page, "the print log", theme)));
    // The debugger, opened on Shared's first case.
    await p.open(site.url("?puzzle=shared"));
    await p.setCode(fs.readFileSync(path.join(ROOT, "shaders/shared.wgsl"), "utf8"));
    await p.testid("step-case-1").click();
    await p.testid("debugger-invocations").locator("button").first().waitFor();
    found.push(...(await audit(page, "the debugger", theme)));
    // The compiled-code view, open on Shared's kernel in SPIR-V.
    await page.locator('[data-testid="compiled"] summary').click();
    await page.selectOption('[data-testid="compiled-form"]', "spirv");
    await p.testid("compiled-show").click();
    await page.locator('[data-testid="compiled-text"][data-form="spirv"]').waitFor();
    found.push(...(await audit(page, "the compiled code", theme)));
    // The capstone's page.
    await page.goto(site.url("?generate"));
    await page.locator('[data-testid="generate-page"]').waitFor();
    found.push(...(await audit(page, "the capstone", theme)));
    await context.close();
    assert.deepEqual(found, [], found.join("\n"));
  });
}
