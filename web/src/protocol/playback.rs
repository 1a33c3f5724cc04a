//! Playing a case's steps ([`super::Request::Frames`]): the compared
//! buffers after each of its dispatches, from the GPU
//! (`gpu_puzzles_runner::frames`) or, without WebGPU, from the interpreter
//! (`gpu_puzzles_interp::emulate::frames`).

use gpu_puzzles_core::Values;
use serde::{Deserialize, Serialize};

/// A case's frames, as the worker sends them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FramesReply {
    /// Indices into the puzzle's `buffers` of the captured buffers: its
    /// compared ones, in binding order.
    pub buffers: Vec<usize>,
    /// After how many dispatches each frame was taken (increasing, from 1,
    /// the last the case's dispatch count).
    pub after: Vec<u32>,
    /// Per frame, the captured buffers' contents in the order of `buffers`.
    pub frames: Vec<Vec<Values>>,
    /// The dispatch list's time per run in milliseconds on the GPU, with no
    /// copies between dispatches; `None` when emulated.
    pub list_ms: Option<f64>,
    /// The adapter's name, or `None` when emulated.
    pub adapter: Option<String>,
    /// A software adapter (its figure says little about GPUs), or emulated.
    pub software: bool,
}

impl FramesReply {
    /// Dispatches a second of the student's kernel, where timed.
    pub fn steps_per_second(&self) -> Option<f64> {
        let steps = *self.after.last()? as f64;
        self.list_ms.filter(|&ms| ms > 0.0).map(|ms| steps * 1000.0 / ms)
    }
}
