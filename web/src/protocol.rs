//! The messages between the page and the judge's Web Worker
//! ([`crate::engine`]): what the page asks for, and what the worker answers.
//!
//! Each travels as one byte array ([`encode`], [`decode`]): this build's
//! fingerprint, then the message in `postcard`, a compact binary serde
//! format whose reader is small. Floats keep their bits, NaN and infinities
//! included, and one array crosses `postMessage` in one copy (or none, when
//! transferred), where a JavaScript object would cost a call per field.
//! Both ends are built from this one file in one build; the fingerprint
//! catches a page and a worker of different builds anyway (a cache that
//! kept one of them), since postcard's bytes carry no field names to
//! disagree on.

pub mod generation;
pub mod playback;

use crate::wire::{option, CaseResultDef};
use generation::{GenerateChunk, GenerateFailure, GenerateRequest, ModelInfo};
use gpu_puzzles_core::Values;
use gpu_puzzles_interp::debug::{InvocationView, MemoryView};
use gpu_puzzles_verdict::judge::CaseResult;
use gpu_puzzles_verdict::timing::Peaks;
use gpu_puzzles_verdict::trace::BufferTrace;
use playback::FramesReply;
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
        /// The query that versions our solutions' files
        /// ([`crate::solutions`]): a performance case is timed against our
        /// solution, fetched with it; empty in a build without them.
        solutions: String,
        /// Time the puzzle's comparison kernels even on a software adapter,
        /// where they are left untimed unless the student asks
        /// ([`gpu_puzzles_verdict::run_report::PerformanceReport::comparisons_untimed`]).
        time_comparisons: bool,
    },
    /// A debugger action; answered by [`Reply::Debug`].
    Debug(DebugAction),
    /// Ends the worker with a panic, as a bug in naga, the runner or the
    /// interpreter would (answered by [`Reply::Crashed`]): the browser tests
    /// check with it that the page recovers.
    Crash,
    /// Loads the capstone's model in the worker (fetched once, then kept),
    /// with the query that versions its files
    /// ([`GenerateRequest::model_version`]); answered by [`Reply::Model`].
    Model {
        /// `?v=…`, or empty.
        version: String,
    },
    /// Opens a generation, replacing any open one; answered by
    /// [`Reply::Generate`] once the prompt is fed (no characters yet).
    Generate(GenerateRequest),
    /// The next `count` characters of the open generation; answered by
    /// [`Reply::Generate`].
    GenerateMore {
        /// Characters to generate at most (fewer when the generation ends).
        count: u32,
    },
    /// Plays written case `case` (its number) of puzzle `slug` with
    /// `source`: its compared buffers after each dispatch, at most
    /// `gpu_puzzles_runner::MAX_FRAMES` of them; answered by
    /// [`Reply::Frames`].
    Frames {
        /// The puzzle's slug.
        slug: String,
        /// The case's number (a written case).
        case: usize,
        /// The student's WGSL, as the Run judged it.
        source: String,
        /// As in [`Request::Acquire`].
        page_webgpu: bool,
    },
    /// Written case `case` (its number) of puzzle `slug` with `source` in
    /// the form named `form` (`gpu_puzzles_instrument::translate::Form`);
    /// answered by [`Reply::Compiled`].
    Compiled { slug: String, case: usize, source: String, form: String },
    /// Sent by the judge's worker to its helper worker
    /// ([`crate::helper`]), never by the page: the order check of case
    /// `case` (its number; a random case is drawn again from `seed`) of
    /// puzzle `slug`, for a GPU run that passed; answered by
    /// [`Reply::Check`].
    Check {
        /// The puzzle's slug.
        slug: String,
        /// The seed of the Run's random cases.
        seed: u64,
        /// The case's number.
        case: usize,
        /// The student's WGSL, before template substitution.
        source: String,
        /// The compared buffers after the judge's lockstep run of the
        /// case, which the check then does not repeat.
        lockstep: Option<Vec<Values>>,
    },
}

/// What the debugger is asked to do ([`gpu_puzzles_interp::debug::Debugger`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum DebugStep {
    /// One statement for every running invocation.
    Step,
    /// Until every invocation waits at a barrier or has returned.
    ToBarrier,
    /// Every workgroup to the end.
    RunToEnd,
    /// Back to the start.
    Restart,
    /// Back to the start with subgroups of this many lanes.
    SubgroupSize(u32),
    /// On until the invocations of a workgroup of an entry point stand at
    /// a line, about to run it (a finding's "Show me").
    RunTo {
        /// The entry point, by name, when the finding names one.
        entry_point: Option<String>,
        /// `workgroup_id`.
        workgroup: [u32; 3],
        /// The line, from 1.
        line: usize,
    },
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
    /// The worker panicked and can answer nothing more (sent unasked, with
    /// id 0, by its panic hook): the panic's message and place.
    Crashed(String),
    /// The adapter's description, or why there is none.
    Adapter(Result<String, String>),
    /// A Run's results, or what went wrong, in words for the student
    /// (boxed: the other replies are far smaller).
    Run(Result<Box<RunReply>, String>),
    /// The debugger's state after an action, or why the case cannot open.
    Debug(Result<Snapshot, String>),
    /// The capstone's model, or why it could not be loaded.
    Model(Result<ModelInfo, String>),
    /// A generation's next chunk, or why it stopped.
    Generate(Result<GenerateChunk, GenerateFailure>),
    /// A case's frames ([`Request::Frames`]), or why it could not be played.
    Frames(Result<FramesReply, String>),
    /// The kernel in the form asked for ([`Request::Compiled`]), or naga's
    /// message.
    Compiled(Result<String, String>),
    /// The helper's order check ([`Request::Check`]): `Err` when it could
    /// not make it, else the check's own result (a failing outcome,
    /// nothing, or why the interpreter could not run the case).
    Check(Result<Result<Option<CheckedOutcome>, String>, String>),
}

impl Reply {
    /// The same kind of reply as `body`, carrying `message` as its error.
    pub fn error_like(body: &Reply, message: String) -> Reply {
        match body {
            Reply::Ready | Reply::Crashed(_) | Reply::Adapter(_) => Reply::Adapter(Err(message)),
            Reply::Run(_) => Reply::Run(Err(message)),
            Reply::Debug(_) => Reply::Debug(Err(message)),
            Reply::Check(_) => Reply::Check(Err(message)),
            Reply::Frames(_) => Reply::Frames(Err(message)),
            Reply::Compiled(_) => Reply::Compiled(Err(message)),
            Reply::Model(_) => Reply::Model(Err(message)),
            Reply::Generate(_) => Reply::Generate(Err(GenerateFailure::plain(message))),
        }
    }
}

/// An [`Outcome`](gpu_puzzles_verdict::judge::Outcome) on the wire, through
/// its mirror in [`crate::wire`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CheckedOutcome(
    #[serde(with = "crate::wire::OutcomeDef")] pub gpu_puzzles_verdict::judge::Outcome,
);

/// A finished Run, as the worker sends it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunReply {
    /// One per case, written cases first, then the random ones.
    pub results: Vec<WireResult>,
    /// The random cases the Run's seed drew (numbered after the puzzle's):
    /// the page's puzzle data has no generators ([`crate::puzzle_data`]).
    pub random: Vec<gpu_puzzles_core::Case>,
    /// The device had been lost and was recreated for this Run.
    pub recreated: bool,
    /// This device's peaks, once a performance case has run.
    #[serde(with = "option")]
    pub peaks: Option<Peaks>,
    /// A software adapter (performance targets are not enforced).
    pub software: bool,
    /// Whether, and why, the CPU interpreter judged the Run.
    pub emulated: gpu_puzzles_verdict::run_report::Emulated,
    /// Where the worker's time went, in milliseconds: starting the cases,
    /// their read-backs, the CPU checks, the performance cases, then of the
    /// first: plain compiles, the instrumentation pass, instrumented
    /// compiles, the interpreter's checks of the cases; then how many
    /// order checks the helper worker made (a count); last, preparing the
    /// cases (substituting and parsing the text)
    /// ([`gpu_puzzles_runner::RunPhases`]); `None` when emulated.
    pub phases: Option<[f64; 10]>,
    /// The worker's wasm memory after the Run, in bytes: a wasm memory
    /// grows and never shrinks, so the page replaces a worker whose memory
    /// has passed its bound ([`crate::gpu`]).
    pub wasm_bytes: u64,
}

/// A [`CaseResult`] (in [`crate::wire`]'s form) and, as one block of words
/// ([`Words`]), the read-backs and the per-word and per-invocation counts
/// that heat maps are drawn from: hundreds of thousands of numbers for the
/// larger cases, copied in bulk rather than read one by one.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WireResult {
    /// The result without those fields.
    #[serde(with = "CaseResultDef")]
    pub result: CaseResult,
    /// `workgroup_size` of its findings, when there are findings.
    pub workgroup_size: [u32; 3],
    /// `CaseResult::actual`, then `Findings::buffers`, then
    /// `Findings::invocations` ([`WireResult::new`] gives the layout).
    pub bulk: Words,
}

impl WireResult {
    /// Splits `result` for sending. The words: the number of read-backs,
    /// each as its type (0 `f32`, 1 `i32`, 2 `u32`), its length and its
    /// elements' bits; the number of traced buffers, each as its length and
    /// its reads, writes and writers (a writer `w` as `w + 1`, none as 0);
    /// the number of invocations and their counts each
    /// (`INVOCATION_WORDS`).
    pub fn new(mut result: CaseResult) -> Self {
        let actual = std::mem::take(&mut result.actual);
        let (buffers, invocations, workgroup_size) = match result.findings.as_mut() {
            Some(f) => (
                std::mem::take(&mut f.buffers),
                std::mem::take(&mut f.invocations),
                f.workgroup_size,
            ),
            None => (Vec::new(), Vec::new(), [0; 3]),
        };
        let mut w = Vec::new();
        w.push(actual.len() as u32);
        for v in &actual {
            match v {
                Values::F32(x) => {
                    w.extend([0, x.len() as u32]);
                    w.extend(x.iter().map(|f| f.to_bits()));
                }
                Values::I32(x) => {
                    w.extend([1, x.len() as u32]);
                    w.extend(x.iter().map(|&i| i as u32));
                }
                Values::U32(x) => {
                    w.extend([2, x.len() as u32]);
                    w.extend(x);
                }
            }
        }
        w.push(buffers.len() as u32);
        for b in &buffers {
            w.push(b.reads.len() as u32);
            w.extend(&b.reads);
            w.extend(&b.writes);
            w.extend(b.writer.iter().map(|x| x.map_or(0, |v| v.wrapping_add(1))));
        }
        w.push(invocations.len() as u32);
        w.extend(invocations.iter().flatten());
        WireResult { result, workgroup_size, bulk: Words(w) }
    }

    /// The whole result again.
    ///
    /// # Errors
    /// A block of words too short for what it says it holds.
    pub fn into_result(self) -> Result<CaseResult, ProtocolError> {
        let mut words = self.bulk.0.as_slice();
        let mut take = |n: usize| -> Result<&[u32], ProtocolError> {
            if words.len() < n {
                return Err(ProtocolError::CutShort);
            }
            let (head, rest) = words.split_at(n);
            words = rest;
            Ok(head)
        };
        let mut result = self.result;
        let count = take(1)?[0];
        for _ in 0..count {
            let head = take(2)?;
            let (kind, len) = (head[0], head[1] as usize);
            let x = take(len)?;
            result.actual.push(match kind {
                0 => Values::F32(x.iter().map(|&b| f32::from_bits(b)).collect()),
                1 => Values::I32(x.iter().map(|&b| b as i32).collect()),
                _ => Values::U32(x.to_vec()),
            });
        }
        let count = take(1)?[0];
        let mut buffers = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let len = take(1)?[0] as usize;
            let reads = take(len)?.to_vec();
            let writes = take(len)?.to_vec();
            let writer = take(len)?.iter().map(|&v| v.checked_sub(1)).collect();
            buffers.push(BufferTrace { reads, writes, writer });
        }
        let count = take(1)?[0] as usize;
        const WORDS: usize = gpu_puzzles_verdict::trace::INVOCATION_WORDS as usize;
        let invocations = take(count * WORDS)?
            .chunks_exact(WORDS)
            .map(|c| std::array::from_fn(|k| c[k]))
            .collect();
        if let Some(f) = result.findings.as_mut() {
            f.buffers = buffers;
            f.invocations = invocations;
            f.workgroup_size = self.workgroup_size;
        }
        Ok(result)
    }
}

/// 32-bit words that travel as one byte array (a `Uint8Array`,
/// little-endian), copied in bulk.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Words(pub Vec<u32>);

impl Serialize for Words {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Bytes(self.0.iter().flat_map(|w| w.to_le_bytes()).collect()).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Words {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let Bytes(v) = Bytes::deserialize(d)?;
        if !v.len().is_multiple_of(4) {
            return Err(serde::de::Error::custom(format!(
                "{} bytes are not whole 32-bit words",
                v.len()
            )));
        }
        Ok(Words(v.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()))
    }
}

/// Bytes that travel as one byte array (a `Uint8Array`), copied in bulk.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bytes(pub Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Bytes;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Bytes, E> {
                Ok(Bytes(v))
            }
        }
        d.deserialize_byte_buf(Visit)
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
    /// Lanes per subgroup, when the shader uses subgroups.
    pub subgroup_size: Option<u32>,
}

/// This build's fingerprint: a hash of the sources that define the messages
/// (written by `build.rs`), 16 hexadecimal digits.
const FINGERPRINT: &[u8] = env!("GPU_PUZZLES_PROTOCOL").as_bytes();

/// Why a message between the page and the judge's worker could not be
/// written or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// A result's block of words shorter than it says.
    #[error("the judge's reply was cut short; please report this")]
    CutShort,
    /// Bytes with another build's fingerprint (a page and a worker of two
    /// deployments).
    #[error("the message is from another build of the site")]
    OtherBuild,
    /// A value that is not a `Uint8Array`.
    #[error("the message is not a byte array: it is from another build of the site")]
    NotBytes,
    /// postcard could not read the bytes: its message.
    #[error("the message could not be read ({0})")]
    Unreadable(String),
    /// postcard could not write the message: its message.
    #[error("the message could not be written ({0})")]
    Unwritable(String),
}

/// The bytes `message` travels as: [`FINGERPRINT`], then its postcard form.
///
/// # Errors
/// [`ProtocolError::Unwritable`] (a type postcard cannot write; none of
/// this file's can fail).
pub fn encode_bytes<T: Serialize>(message: &T) -> Result<Vec<u8>, ProtocolError> {
    postcard::to_extend(message, FINGERPRINT.to_vec())
        .map_err(|e| ProtocolError::Unwritable(e.to_string()))
}

/// The message `bytes` carry.
///
/// # Errors
/// Bytes of another build (a different fingerprint) or of no message.
pub fn decode_bytes<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, ProtocolError> {
    let body = bytes.strip_prefix(FINGERPRINT).ok_or(ProtocolError::OtherBuild)?;
    postcard::from_bytes(body).map_err(|e| ProtocolError::Unreadable(e.to_string()))
}

/// [`encode_bytes`] as a `Uint8Array`, ready for `postMessage` (its buffer
/// can be transferred).
///
/// # Errors
/// As [`encode_bytes`].
pub fn encode<T: Serialize>(message: &T) -> Result<js_sys::Uint8Array, ProtocolError> {
    encode_bytes(message).map(|b| js_sys::Uint8Array::from(b.as_slice()))
}

/// [`decode_bytes`] of the `Uint8Array` `value`.
///
/// # Errors
/// A value that is not a `Uint8Array`, or as [`decode_bytes`].
pub fn decode<T: for<'de> Deserialize<'de>>(
    value: wasm_bindgen::JsValue,
) -> Result<T, ProtocolError> {
    use wasm_bindgen::JsCast as _;
    let array = value.dyn_into::<js_sys::Uint8Array>().map_err(|_| ProtocolError::NotBytes)?;
    decode_bytes(&array.to_vec())
}

#[cfg(test)]
mod tests;
