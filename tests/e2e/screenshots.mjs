// Takes the README's screenshots with headless Chromium: a solved puzzle, a
// failed one, a performance case and Histogram's racing starter. Needs a built dist/: node tests/e2e/screenshots.mjs
import fs from "node:fs";
import path from "node:path";
import { ROOT, serve, launch, PuzzlePage } from "./harness.mjs";

const out = path.join(ROOT, "docs/screenshots");
fs.mkdirSync(out, { recursive: true });
const site = await serve();
const browser = await launch();
try {
  const shots = [
    { file: "solved.png", slug: "matmul", code: fs.readFileSync(path.join(ROOT, "shaders/matmul.wgsl"), "utf8"), want: "passed", focus: "verdict" },
    { file: "failed.png", slug: "broadcast", code: fs.readFileSync(path.join(ROOT, "tests/gpu/solutions/broadcast--swapped-a-b.wgsl"), "utf8"), want: "failed", focus: "case-3" },
    { file: "performance.png", slug: "divergence", code: fs.readFileSync(path.join(ROOT, "shaders/divergence.wgsl"), "utf8"), want: "passed", focus: "case-6" },
    { file: "race.png", slug: "histogram", code: null, want: "failed", focus: "case-3" },
  ];
  for (const s of shots) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const p = new PuzzlePage(page);
    await p.open(site.url(`?puzzle=${s.slug}`));
    if (s.code !== null) await p.setCode(s.code); // null: the starter as shipped
    const verdict = await p.run({ timeout: 240_000 });
    if (verdict !== s.want) throw new Error(`${s.slug}: expected ${s.want}, got ${verdict}`);
    await page.locator(`[data-testid="${s.focus}"]`).evaluate((el) => el.scrollIntoView({ block: "start" }));
    await page.screenshot({ path: path.join(out, s.file), fullPage: false });
    console.log(`wrote docs/screenshots/${s.file}`);
    await page.close();
  }
} finally {
  await browser.close();
  site.server.close();
}
