// Starts the judge's Web Worker (Trunk builds gpu-puzzles-worker.js and its
// wasm; the page starts this file). The page starts it with the query the
// build wrote into index.html (`?v=` and a hash of the worker's files, by
// scripts/post-build.mjs), and the same query is asked of the worker's two
// files, so a cache never serves them from another build than the page's.
// A failure to load the wasm is thrown again outside the promise, so that it
// reaches the page as the Worker's `error` event (an unhandled rejection
// inside a worker does not), and the page tells the student instead of
// waiting.
const version = self.location.search;

// WebGPU's `subgroups` feature, requested wherever the adapter offers it.
// wgpu 30's WebGPU backend does not pass this feature on to
// `requestDevice` (gfx-rs/wgpu#10146, fixed upstream by #10220), so it is
// added here, and `self.gpuPuzzlesSubgroups` tells the judge whether the
// device has it (without it, subgroup shaders are judged on the CPU).
if (self.GPUAdapter && GPUAdapter.prototype.requestDevice) {
  const requestDevice = GPUAdapter.prototype.requestDevice;
  GPUAdapter.prototype.requestDevice = function (descriptor) {
    let asked = descriptor;
    if (this.features && this.features.has('subgroups')) {
      const features = Array.from((descriptor && descriptor.requiredFeatures) || []);
      if (!features.includes('subgroups')) features.push('subgroups');
      asked = Object.assign({}, descriptor, { requiredFeatures: features });
    }
    return requestDevice.call(this, asked).then((device) => {
      self.gpuPuzzlesSubgroups = device.features.has('subgroups');
      return device;
    });
  };
}
importScripts(`./gpu-puzzles-worker.js${version}`);
wasm_bindgen({ module_or_path: `./gpu-puzzles-worker_bg.wasm${version}` }).then(
  (exports) => {
    // The wasm's memory, read by the browser tests' leak check.
    self.judgeWasmMemory = exports.memory;
  },
  (e) => {
    setTimeout(() => {
      throw new Error(`the judge's wasm could not be loaded: ${e}`);
    });
  },
);
