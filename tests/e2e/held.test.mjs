// Every held wrong solution of tests/gpu/solutions/, judged through the page in
// Chromium (WebGPU on SwiftShader, compiled by Tint), must get the verdict
// and the named finding the native judge gives it (its `// expect:` line,
// checked on lavapipe by tests/gpu/puzzles.rs). firefox.test.mjs does the
// same in Firefox, whose WebGPU compiles with naga: a Run's verdict must not
// depend on the engine's compiler (issue 88). One page per puzzle, one Run
// per file.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serve, launch, openPage, heldSolutions, shownOutcome, unmetExpectation } from "./harness.mjs";

let site, browser;
const started = Date.now();
before(async () => {
  site = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  site?.server.close();
  console.log(`Chromium, held solutions: ${((Date.now() - started) / 1000).toFixed(1)} s for this file`);
});

// The wrong ones: the correct kernels in other styles (`// expect: passed`)
// are judged natively, and CI's time goes to the files a compiler could judge
// differently.
const held = heldSolutions().filter((h) => h.expect !== "passed");
for (const slug of [...new Set(held.map((h) => h.slug))]) {
  test(`Chromium: ${slug}: every held wrong solution gets the native judge's verdict`, async () => {
    const { page, p, errors } = await openPage(browser);
    await p.open(site.url(`?puzzle=${slug}`));
    const unmet = [];
    for (const h of held.filter((h) => h.slug === slug)) {
      await p.setCode(h.source);
      await p.run({ timeout: 180_000 });
      const why = unmetExpectation(h, await page.evaluate(shownOutcome));
      if (why) unmet.push(`${h.file}: ${why}`);
    }
    assert.deepEqual(unmet, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
