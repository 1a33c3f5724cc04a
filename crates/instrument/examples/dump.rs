//! Prints what the instrumentation pass writes back for a shader, for
//! reading it or timing its compile (`tests/e2e/bench-compile.mjs`).
//!
//! `cargo run -p gpu-puzzles-instrument --example dump -- SHADER.wgsl
//! WORKGROUP_X RACECHECK(0|1) LEN...`: the shader is substituted for one
//! workgroup of `WORKGROUP_X` invocations; each `LEN` is the length in
//! 4-byte words of the storage buffer at `@binding(k)`, in order; the
//! entry point is `main`.

use gpu_puzzles_core::CaseConfig;
use gpu_puzzles_instrument::{instrument, Options, Traced};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, x, racecheck, lens @ ..] = &args[..] else {
        return Err("usage: dump SHADER.wgsl WORKGROUP_X RACECHECK(0|1) LEN...".into());
    };
    let source = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let x: u32 = x.parse().map_err(|e| format!("WORKGROUP_X: {e}"))?;
    let config =
        CaseConfig { workgroup_size: [x, 1, 1], workgroups: [1, 1, 1], workgroup_memory: None };
    let buffers = lens
        .iter()
        .enumerate()
        .map(|(k, len)| {
            len.parse()
                .map(|len| Traced { binding: k as u32, len })
                .map_err(|e| format!("LEN {len}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let substituted = gpu_puzzles_core::template::substitute(&source, &config);
    let out = instrument(
        &substituted.text,
        &buffers,
        &config,
        &["main"],
        Options { racecheck: racecheck == "1" },
    )
    .map_err(|e| e.to_string())?;
    print!("{}", out.wgsl().map_err(|e| e.to_string())?);
    Ok(())
}
