//! Plain data that both the CPU references and the puzzle model speak: the
//! 4-byte scalar types of buffers and uniforms ([`ElementType`]), typed
//! buffer contents ([`Values`]), the sizes of a dispatch ([`CaseConfig`]),
//! and the seeded generator every platform draws the same numbers from
//! ([`SplitMix64`]).
//!
//! It owns no idea of a puzzle, a case or a verdict, and may not: it is the
//! floor the other crates stand on, so that a reference function takes plain
//! inputs and returns plain values without knowing the model that calls it.

mod config;
mod element;
mod rng;
mod values;

pub use config::CaseConfig;
pub use element::ElementType;
pub use rng::SplitMix64;
pub use values::{format_f32, Values};
