// Times Chromium's compile (SwiftShader) of WGSL files: a module and a
// pipeline (`createComputePipelineAsync`, entry point `main`, layout
// "auto") per file, each time with an unused function no earlier compile
// had, so nothing is cached. Prints the median and the least of REPS (7)
// compiles per file, the files taken in turn. For comparing what the
// instrumentation pass writes back (`cargo run -p gpu-puzzles-instrument
// --example dump`) with the student's own shader, in one browser.
//
//   node bench-compile.mjs plain.wgsl instrumented.wgsl ...
import fs from "node:fs";
import { serve, launch } from "./harness.mjs";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node bench-compile.mjs FILE.wgsl ...");
  process.exit(2);
}
const texts = files.map((f) => fs.readFileSync(f, "utf8"));
const { server, url } = await serve();
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(url());
  const results = await page.evaluate(async ({ texts, reps }) => {
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) throw new Error("no WebGPU adapter");
    const device = await adapter.requestDevice({ requiredFeatures: adapter.features.has("subgroups") ? ["subgroups"] : [] });
    const times = texts.map(() => []);
    const errors = texts.map(() => null);
    for (let r = 0; r < reps; r++) {
      for (let i = 0; i < texts.length; i++) {
        const code = `${texts[i]}\nfn bench_${r}_${Math.floor(Math.random() * 1e9)}() -> u32 { return 1u; }\n`;
        const t0 = performance.now();
        try {
          await device.createComputePipelineAsync({ layout: "auto", compute: { module: device.createShaderModule({ code }), entryPoint: "main" } });
          times[i].push(performance.now() - t0);
        } catch (e) {
          errors[i] = String(e);
        }
      }
    }
    return times.map((t, i) => {
      const s = [...t].sort((a, b) => a - b);
      return { median: s[s.length >> 1], least: s[0], error: errors[i] };
    });
  }, { texts, reps: Number(process.env.REPS || 7) });
  let failed = false;
  results.forEach((r, i) => {
    if (r.error) {
      failed = true;
      console.log(`  failed  ${files[i]}: ${r.error}`);
    } else {
      console.log(`${r.median.toFixed(1).padStart(8)} ms (least ${r.least.toFixed(1)})  ${files[i]}`);
    }
  });
  process.exitCode = failed ? 1 : 0;
} finally {
  await browser.close();
  server.close();
}
