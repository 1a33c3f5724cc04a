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
