//! Mounts the site; everything else is in the library so tests can use it.
fn main() {
    gpu_puzzles_web::start();
}
