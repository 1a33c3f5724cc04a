// Prints the shared libraries Chromium's processes have loaded while a page
// of the built site holds a WebGPU device, one path a line: what
// scripts/device-browser.sh carries to a machine with no browser, besides
// what `ldd` shows (Chromium opens many libraries only when it runs).
import fs from "node:fs";
import { launch, serve } from "./harness.mjs";

const site = await serve();
const browser = await launch();
const page = await browser.newPage();
await page.goto(site.url());
const ok = await page.evaluate(async () => Boolean(await (await navigator.gpu.requestAdapter())?.requestDevice()));
if (!ok) throw new Error("no WebGPU device in Chromium: the list would miss what WebGPU loads");
const libraries = new Set();
for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
  let maps;
  try {
    if (!fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("chromium")) continue;
    maps = fs.readFileSync(`/proc/${pid}/maps`, "utf8");
  } catch {
    continue; // a process that ended while we read
  }
  for (const line of maps.split("\n")) {
    const file = line.split(/\s+/)[5];
    if (file && /\.so(\.|$)/.test(file)) libraries.add(file);
  }
}
await browser.close();
site.server.close();
console.log([...libraries].sort().join("\n"));
