//! The messages between the page and the judge's Web Worker
//! ([`crate::engine`]): what the page asks for, and what the worker answers.
//!
//! Each travels as a JavaScript value made by `serde-wasm-bindgen` and
//! copied by `postMessage` (the structured clone algorithm), so floats keep
//! their bits, NaN and infinities included, which JSON would not. Both ends
//! are built from this one file in one build, so they always agree.

use gpu_puzzles_core::judge::CaseResult;
use gpu_puzzles_core::timing::Peaks;
use gpu_puzzles_core::trace::BufferTrace;
use gpu_puzzles_core::Values;
use gpu_puzzles_interp::debug::{InvocationView, MemoryView};
use serde::{Deserialize, Serialize};

/// A request or a reply with the number that pairs them (the page numbers
/// its requests from 1; the worker's [`Reply::Ready`] carries 0).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Envelope<T> {
    /// Pairs a reply with its request.
    pub id: u32,
    /// The message.
    pub body: T,
}

/// What the page asks the worker for.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Request {
    /// Request a WebGPU adapter and device (kept for later runs); answered
    /// by [`Reply::Adapter`].
    Acquire {
        /// The page's window offers `navigator.gpu`. When it does not, the
        /// worker does not look for one either, so the page and the worker
        /// never disagree about whether this browser has WebGPU.
        page_webgpu: bool,
    },
    /// Judge `source` on every case of the puzzle `slug`, with the random
    /// cases that `seed` draws ([`gpu_puzzles_core::load::random_cases`]);
    /// answered by [`Reply::Run`].
    Run {
        /// The puzzle's slug.
        slug: String,
        /// The student's WGSL, before template substitution.
        source: String,
        /// The seed of this Run's random cases.
        seed: u64,
        /// As in [`Request::Acquire`].
        page_webgpu: bool,
    },
    /// A debugger action; answered by [`Reply::Debug`].
    Debug(DebugAction),
}

/// What the debugger is asked to do ([`gpu_puzzles_interp::debug::Debugger`]).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub enum DebugStep {
    /// One statement for every running invocation.
    Step,
    /// Until every invocation waits at a barrier or has returned.
    ToBarrier,
    /// Every workgroup to the end.
    RunToEnd,
    /// Back to the start.
    Restart,
}

/// A debugger request.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum DebugAction {
    /// Open case `case` (its number, from 1) of puzzle `slug` with `source`;
    /// a random case is named by the seed of the Run that drew it.
    Open {
        /// The puzzle's slug.
        slug: String,
        /// The case's number.
        case: usize,
        /// The seed that drew it, for a random case.
        seed: Option<u64>,
        /// The student's WGSL.
        source: String,
    },
    /// Act on the open session.
    Act(DebugStep),
    /// Show invocation `local_invocation_index`'s variables.
    Select(u32),
    /// Close the session.
    Close,
}

/// What the worker answers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Reply {
    /// The worker is listening (sent once, unasked, with id 0).
    Ready,
    /// The adapter's description, or why there is none.
    Adapter(Result<String, String>),
    /// A Run's results, or what went wrong, in words for the student.
    Run(Result<RunReply, String>),
    /// The debugger's state after an action, or why the case cannot open.
    Debug(Result<Snapshot, String>),
}

/// A finished Run, as the worker sends it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunReply {
    /// One per case, written cases first, then the random ones.
    pub results: Vec<WireResult>,
    /// The device had been lost and was recreated for this Run.
    pub recreated: bool,
    /// This device's peaks, once a performance case has run.
    pub peaks: Option<Peaks>,
    /// A software adapter (performance targets are not enforced).
    pub software: bool,
    /// Judged by the CPU interpreter, without WebGPU.
    pub emulated: bool,
}

/// A [`CaseResult`] with the fields its JSON form leaves out (the command
/// line's reports stay small): the read-backs and the per-word and
/// per-invocation counts that heat maps are drawn from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WireResult {
    /// The result without those fields.
    pub result: CaseResult,
    /// `CaseResult::actual`.
    pub actual: Vec<Values>,
    /// `Findings::buffers`, when there are findings.
    pub buffers: Vec<BufferTrace>,
    /// `Findings::invocations`.
    pub invocations: Vec<[u32; 4]>,
    /// `Findings::workgroup_size`.
    pub workgroup_size: [u32; 3],
}

impl WireResult {
    /// Splits `result` for sending.
    pub fn new(mut result: CaseResult) -> Self {
        let actual = std::mem::take(&mut result.actual);
        let (buffers, invocations, workgroup_size) = match result.findings.as_mut() {
            Some(f) => (std::mem::take(&mut f.buffers), std::mem::take(&mut f.invocations), f.workgroup_size),
            None => (Vec::new(), Vec::new(), [0; 3]),
        };
        WireResult { result, actual, buffers, invocations, workgroup_size }
    }

    /// The whole result again.
    pub fn into_result(self) -> CaseResult {
        let mut result = self.result;
        result.actual = self.actual;
        if let Some(f) = result.findings.as_mut() {
            f.buffers = self.buffers;
            f.invocations = self.invocations;
            f.workgroup_size = self.workgroup_size;
        }
        result
    }
}

/// What the debugger panel draws of the session after an action.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Snapshot {
    /// Case, entry point, workgroup and step count, in words.
    pub header: String,
    /// Why it stopped, or where the invocations are, in words.
    pub message: String,
    /// Every workgroup ran to the end.
    pub finished: bool,
    /// Where each invocation of the workgroup is, by `local_invocation_index`.
    pub invocations: Vec<InvocationView>,
    /// The lines the invocations are on, for the editor's highlight.
    pub lines: Vec<usize>,
    /// Workgroup memory and the buffers, with the last step's reads and writes.
    pub memories: Vec<MemoryView>,
    /// The selected invocation's variables: `(name, value)`.
    pub variables: Vec<(String, String)>,
    /// What the selected invocation read so far.
    pub reads: Vec<String>,
    /// What the selected invocation wrote so far.
    pub writes: Vec<String>,
}

/// The value `message` travels as.
///
/// # Errors
/// `serde-wasm-bindgen`'s message (a type it cannot represent).
pub fn to_js<T: Serialize>(message: &T) -> Result<wasm_bindgen::JsValue, String> {
    // 64-bit integers as BigInts: a seed typed into the URL may exceed 2^53.
    message.serialize(&serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true)).map_err(|e| e.to_string())
}

/// The message `value` carries.
///
/// # Errors
/// `serde-wasm-bindgen`'s message (a value of another shape).
pub fn from_js<T: for<'de> Deserialize<'de>>(value: wasm_bindgen::JsValue) -> Result<T, String> {
    serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
}
