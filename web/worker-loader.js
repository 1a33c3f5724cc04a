// Starts the judge's Web Worker (Trunk builds gpu-puzzles-worker.js and its
// wasm; the page starts this file). A failure to load the wasm is thrown
// again outside the promise, so that it reaches the page as the Worker's
// `error` event (an unhandled rejection inside a worker does not), and the
// page tells the student instead of waiting.
importScripts("./gpu-puzzles-worker.js");
wasm_bindgen("./gpu-puzzles-worker_bg.wasm").then(
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
