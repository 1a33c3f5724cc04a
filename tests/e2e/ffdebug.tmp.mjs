import puppeteer from "puppeteer-core";
import fs from "node:fs";
import { ROOT, serve, verdictAfter, pasteIntoEditor } from "/work/main/tests/e2e/harness.mjs";
const site = await serve();
const browser = await puppeteer.launch({ browser: "firefox", executablePath: "/usr/bin/firefox-esr", headless: true, extraPrefsFirefox: { "dom.webgpu.enabled": true, "gfx.webgpu.ignore-blocklist": true } });
const sel = (id) => `[data-testid="${id}"]`;
for (let i = 0; i < 30; i++) {
  const slug = ["zip", "pooling", "map", "dot-product"][i % 4];
  const page = await browser.newPage();
  const logs = [];
  page.on("console", (m) => logs.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`));
  await page.goto(site.url(`?puzzle=${slug}`));
  await page.waitForSelector(`${sel("editor")} .cm-content`);
  await page.evaluate(pasteIntoEditor, fs.readFileSync(`${ROOT}/shaders/${slug}.wgsl`, "utf8"));
  await new Promise((r) => setTimeout(r, (i * 137) % 1500));
  const before = await page.$eval(sel("verdict"), (v) => Number(v.dataset.run));
  await page.click(sel("run-button"));
  const t = Date.now();
  try {
    await page.waitForFunction(verdictAfter, { timeout: 20000 }, before);
    console.log(i, slug, "ok", Date.now() - t, "ms");
  } catch (e) {
    console.log(i, slug, "HUNG", logs);
  }
  await page.close();
}
await browser.close();
site.server.close();
