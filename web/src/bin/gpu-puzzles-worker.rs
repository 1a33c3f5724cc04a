//! The judge's Web Worker ([`gpu_puzzles_web::engine`]): Trunk builds it as
//! its own wasm (`data-type="worker"` in `web/index.html`).
fn main() {
    gpu_puzzles_web::start_worker();
}
