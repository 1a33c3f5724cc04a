// Tablets and phones (issue 80): the site in Chromium with Playwright's
// device descriptors (viewport, scale factor, touch, a mobile user agent):
// the list and a puzzle page fit the screen's width (only grids and the
// editor scroll inside themselves), the Run button is reached and tapped,
// the verdict and the pictures fit, and the code survives a reload.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { devices } from "playwright-core";
import { ROOT, serve, launch, openPage } from "./harness.mjs";

let site, browser;
before(async () => {
  site = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  site?.server.close();
});

/** Elements that run past the screen or out of their column of the page (not inside something that scrolls on its own). */
const overflow = () => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    const column = el.closest(".columns > *");
    const limit = column ? Math.min(width, column.getBoundingClientRect().right) : width;
    if (r.width === 0 || r.right <= limit + 1) continue;
    // Inside something that scrolls on its own (a grid, the editor): fine.
    let p = el.parentElement, scrolls = false;
    while (p && p !== document.body) {
      const o = getComputedStyle(p).overflowX;
      if ((o === "auto" || o === "scroll" || o === "hidden") && p.getBoundingClientRect().right <= limit + 1) { scrolls = true; break; }
      p = p.parentElement;
    }
    if (!scrolls) wide.push(`${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : el.className ? `.${String(el.className).split(" ")[0]}` : ""}: right ${Math.round(r.right)} > ${width}`);
  }
  return { pageWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8), count: wide.length };
};

for (const name of ["iPad (gen 7)", "iPad Mini landscape", "iPhone 13", "Pixel 7"]) {
  test(`${name}: the list and a puzzle fit the screen, and a Run is tapped and drawn`, async () => {
    const { defaultBrowserType: _, ...device } = devices[name];
    const context = await browser.newContext(device);
    const { page, p, errors } = await openPage(context);
    await page.goto(site.url());
    await page.locator('[data-testid="puzzle-list"]').waitFor();
    const list = await page.evaluate(overflow);
    assert.ok(Math.abs(list.width - device.viewport.width) <= 20, `the device's width: ${list.width} against ${device.viewport.width}`);
    assert.ok(list.pageWidth <= list.width, `the list scrolls sideways: ${JSON.stringify(list)}`);
    // Separable Gaussian Blur: a statement with formulas, a photograph, images.
    await p.open(site.url("?puzzle=gaussian-blur"));
    const solution = fs.readFileSync(path.join(ROOT, "shaders/gaussian-blur.wgsl"), "utf8");
    await p.setCode(solution);
    const run = p.testid("run-button");
    await run.scrollIntoViewIfNeeded();
    const box = await run.boundingBox();
    assert.ok(box.width >= 24 && box.height >= 24, `the Run button is a target a finger can hit: ${JSON.stringify(box)}`);
    const before = await p.finishedRuns();
    await run.tap();
    await page.waitForFunction((b) => Number(document.querySelector('[data-testid="verdict"]')?.dataset.run) > b, before, { timeout: 120_000 });
    assert.equal(await p.testid("verdict").getAttribute("data-status"), "passed");
    await page.locator(".image canvas").first().waitFor();
    const solved = await page.evaluate(overflow);
    assert.ok(solved.pageWidth <= solved.width, `the puzzle page scrolls sideways: ${JSON.stringify(solved)}`);
    assert.deepEqual(solved.wide, [], "nothing runs past the screen or out of its column (grids and the editor scroll inside themselves)");
    const editor = await p.testid("editor").boundingBox();
    assert.ok(editor.x >= 0 && editor.x + editor.width <= solved.width + 1, `the editor fits: ${JSON.stringify(editor)}`);
    // The code is the student's still after a reload.
    await page.reload();
    await p.testid("editor").locator(".cm-content").waitFor();
    assert.equal(await p.code(), solution);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
