// The in-page halves of the Run-latency benchmark, shared by bench.mjs
// (Chromium, through playwright-core) and bench-firefox.mjs (Firefox ESR,
// through puppeteer-core): both drivers hand these functions to the page's
// `evaluate` with the same argument, so both engines are measured by the
// same code.

/** The pause before every timed Run, page and baseline alike (ms); see bench.mjs. */
export const SETTLE_MS = 50;
export const FRAME_MS = 1000 / 60;

/**
 * In the page: after a settled pause, clicks Run and resolves with the
 * milliseconds to this Run's results rendered (the next frame after the
 * verdict) and to its results judged (the page's `run-judged` mark).
 */
export const timePageRun = ({ settle, frame }) => new Promise((resolve) => setTimeout(resolve, settle + Math.random() * frame)).then(() => new Promise((resolve) => {
  const verdict = document.querySelector('[data-testid="verdict"]');
  const before = Number(verdict.dataset.run);
  const t0 = performance.now();
  // This Run's verdict: a quick Run never shows `running`.
  const done = () => Number(verdict.dataset.run) > before && ["passed", "failed", "error"].includes(verdict.dataset.status);
  const obs = new MutationObserver(() => {
    if (done()) {
      obs.disconnect();
      const judged = performance.getEntriesByName("run-judged").at(-1).startTime - performance.getEntriesByName("run-start").at(-1).startTime;
      requestAnimationFrame(() => resolve({ rendered: performance.now() - t0, judged }));
    }
  });
  obs.observe(document.querySelector(".workspace"), { attributes: true, childList: true, subtree: true });
  document.querySelector('[data-testid="run-button"]').click();
}));

/**
 * What a benchmark appends to a solution to make it new code that computes
 * the same: an unused function with a number no other edit has. A comment
 * would not do: the page's instrumented shader is written back from naga's
 * IR, which drops comments, so the browser would find it compiled already;
 * naga keeps unused functions, and so do the browsers' compilers' caches'
 * keys (the source text). Used by the page's edited Runs and the baseline's
 * Runs of new code alike.
 */
export const editSuffix = (k) => `\nfn bench_edit_${k}_${Math.floor(Math.random() * 1e9)}() -> u32 {\n    return ${k}u;\n}\n`;

/** The suffixes `baselineRuns` needs for `runs` timed Runs of new code (two per timed Run, one to warm up). */
export const freshSuffixes = (runs) => Array.from({ length: 2 * runs + 1 }, (_, k) => editSuffix(k));

/**
 * In the page: the hand-written WebGPU baseline for one puzzle (`puzzle` as
 * `gpu-puzzles export` gives it): per case a module, pipeline, buffers,
 * dispatch and read-back, `runs` times; resolves with the median
 * milliseconds to results read back (`judged`) and to them painted.
 *
 * With `suffixes` (`freshSuffixes(runs)`), every Run is of new code, as
 * the first Run after a student's edit is: each Run's shaders end in an
 * `editSuffix` no earlier Run had, so the browser compiles a module and
 * pipeline per case again, as it does for the page's edited code. Without
 * them the browser's caches hold every shader after the first Run (the
 * Runs of unchanged code).
 */
export const baselineRuns = async ({ puzzle, runs, settle, frame, suffixes = null }) => {
  // The baseline: module, pipeline, buffers, dispatch and read-back per case, nothing else.
  const adapter = await navigator.gpu.requestAdapter();
  // Subgroups where the adapter has them, as the page asks for them: without
  // the feature a subgroup puzzle's shader fails to compile, quickly.
  const device = await adapter.requestDevice({ requiredFeatures: adapter.features.has("subgroups") ? ["subgroups"] : [] });
  let edits = 0;
  const once = async () => {
    const values = [];
    // One suffix per Run of new code, so no Run finds another's shaders.
    const edit = suffixes ? suffixes[edits++] : "";
    for (const c of puzzle.cases) {
      const code = puzzle.solution.replaceAll("{{workgroupSize}}", c.workgroupSize.join(", ")).replaceAll("{{totalWorkgroups}}", c.workgroups.join(", ")).replaceAll("{{smemSize}}", String(c.smemSize)) + edit;
      const module = device.createShaderModule({ code });
      // An explicit layout, as the page builds one (inputs read-only), so
      // both sides meet the browser's pipeline cache alike.
      const bindGroupLayout = device.createBindGroupLayout({
        entries: c.buffers.map((b) => ({ binding: b.binding, visibility: GPUShaderStage.COMPUTE, buffer: { type: b.role === "Input" ? "read-only-storage" : "storage" } })),
      });
      const pipeline = device.createComputePipeline({ layout: device.createPipelineLayout({ bindGroupLayouts: [bindGroupLayout] }), compute: { module, entryPoint: "main" } });
      const entries = [], outputs = [];
      for (const b of c.buffers) {
        const array = b.type === "f32" ? new Float32Array(b.data) : b.type === "i32" ? new Int32Array(b.data) : new Uint32Array(b.data);
        const buf = device.createBuffer({ size: array.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
        device.queue.writeBuffer(buf, 0, array);
        entries.push({ binding: b.binding, resource: { buffer: buf } });
        if (b.role !== "Input") outputs.push(buf);
      }
      const bindGroup = device.createBindGroup({ layout: bindGroupLayout, entries });
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      pass.dispatchWorkgroups(...c.workgroups);
      pass.end();
      const reads = outputs.map((o) => {
        const r = device.createBuffer({ size: o.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
        encoder.copyBufferToBuffer(o, 0, r, 0, o.size);
        return r;
      });
      device.queue.submit([encoder.finish()]);
      for (const r of reads) { await r.mapAsync(GPUMapMode.READ); values.push(new Float32Array(r.getMappedRange().slice(0))); r.unmap(); r.destroy(); }
      for (const e of entries) e.resource.buffer.destroy();
    }
    return values;
  };
  // To painted, as the page is timed: the outputs written into the
  // document as tables (one innerHTML), then the next frame.
  const host = document.body.appendChild(document.createElement("div"));
  const paint = async (values) => {
    host.innerHTML = values.map((a) => `<table><tr>${Array.from(a, (v) => `<td>${v}</td>`).join("")}</tr></table>`).join("");
    await new Promise((resolve) => requestAnimationFrame(resolve));
  };
  const xs = [], ps = [];
  const settled = () => new Promise((resolve) => setTimeout(resolve, settle + Math.random() * frame));
  await paint(await once());
  for (let i = 0; i < runs; i++) {
    await settled();
    let t0 = performance.now();
    await once();
    xs.push(performance.now() - t0);
    await settled();
    t0 = performance.now();
    await paint(await once());
    ps.push(performance.now() - t0);
  }
  host.remove();
  device.destroy();
  const mid = (v) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)];
  return { judged: mid(xs), painted: mid(ps) };
};
