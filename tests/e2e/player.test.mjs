// Playing a case's steps, in headless Chromium with WebGPU (SwiftShader) and
// without it (the interpreter): every step a frame, play and pause, a step
// back and forward, the slider, the last frame drawn as the expected picture,
// the kernel's rate said for what it is, and nothing kept from play to play.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
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

const jacobi = fs.readFileSync(path.join(ROOT, "shaders/jacobi.wgsl"), "utf8");

/** A canvas's pixels as [r, g, b] triples. */
async function pixels(page, testid) {
  return page.locator(`[data-testid="${testid}"]${testid.startsWith("image-") ? " canvas" : ""}`).evaluate((c) => {
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    const out = [];
    for (let i = 0; i < d.length; i += 4) out.push([d[i], d[i + 1], d[i + 2]]);
    return out;
  });
}

// Whether case 3's player shows frame `at` (a string, as data-frame holds it).
const frameIs = (at) => document.querySelector('[data-testid="player-frames-3"]')?.dataset.frame === at;

for (const webgpu of [true, false]) {
  test(`Jacobi's seven steps play frame by frame, ${webgpu ? "on the GPU" : "emulated without WebGPU"}`, async () => {
    const owner = webgpu ? browser : await launch({ webgpu: false });
    const context = await owner.newContext();
    const { page, p, errors } = await openPage(context);
    await p.open(site.url("?puzzle=jacobi"));
    await p.setCode(jacobi);
    assert.equal(await p.run({ timeout: 240_000 }), "passed");
    assert.equal(await p.testid("play-case-2").count(), 0, "a case of one step has nothing to play");
    await p.testid("play-case-3").click();
    const frames = p.testid("player-frames-3");
    await frames.waitFor({ timeout: 120_000 });
    assert.equal(await frames.getAttribute("data-frames"), "7", "a frame after each of the 7 steps");
    // It plays by itself to the last step, then stops there.
    await page.waitForFunction(frameIs, "6", { timeout: 20_000 });
    assert.equal(await p.testid("player-toggle-3").innerText(), "Play");
    assert.equal(await p.testid("player-step-3").innerText(), "step 7 of 7");
    // After 7 steps the result is in b: its last frame is the expected
    // picture, on the same scale (within a grey level: the values agree
    // within the puzzle's tolerance).
    const last = await pixels(page, "player-image-3-b");
    const expected = await pixels(page, "image-expected-3-b");
    assert.equal(last.length, expected.length);
    assert.ok(last.every((px, i) => px.every((c, k) => Math.abs(c - expected[i][k]) <= 1)), "the last frame is the expected picture");
    // The first frame differs: one step in, the heat has not spread.
    await p.testid("player-slider-3").fill("0");
    await page.waitForFunction(frameIs, "0");
    assert.equal(await p.testid("player-step-3").innerText(), "step 1 of 7");
    assert.ok((await pixels(page, "player-image-3-b")).some((px, i) => Math.abs(px[0] - expected[i][0]) > 1), "step 1 is not step 7");
    await p.testid("player-forward-3").click();
    await page.waitForFunction(frameIs, "1");
    await p.testid("player-back-3").click();
    await p.testid("player-back-3").click();
    await page.waitForFunction(frameIs, "0");
    // Play, then pause: the button says which, and pressing it again plays on.
    await p.testid("player-toggle-3").click();
    assert.equal(await p.testid("player-toggle-3").getAttribute("aria-pressed"), "true");
    await page.waitForFunction(frameIs, "6", { timeout: 20_000 });
    assert.equal(await p.testid("player-toggle-3").getAttribute("aria-pressed"), "false");
    const rate = await p.testid("player-rate-3").innerText();
    if (webgpu) assert.match(rate, /Your kernel: \d+ steps a second on .*software adapter/);
    else assert.match(rate, /Emulated on the CPU/);
    // Played again and again, nothing piles up: the page's element count
    // comes back to what it was.
    const count = () => page.evaluate(() => document.getElementsByTagName("*").length);
    const before = await count();
    for (let k = 0; k < 10; k++) {
      await p.testid("play-case-3").click();
      await p.testid("player-frames-3").waitFor({ timeout: 120_000 });
      await page.waitForFunction(frameIs, "6", { timeout: 20_000 });
    }
    assert.equal(await count(), before, "the same elements after ten plays");
    assert.deepEqual(errors, []);
    await context.close();
    if (!webgpu) await owner.close();
  });
}
