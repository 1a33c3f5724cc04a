//! What a GPU's driver is handed: a kernel translated by naga into the
//! shading languages under WebGPU — MSL (Metal), HLSL (Direct3D 12), SPIR-V
//! (Vulkan, disassembled to text by `rspirv`) and GLSL (OpenGL ES 3.1, one
//! entry point at a time) — so a student can see what a barrier, an atomic
//! or a `vec4` load becomes.
//!
//! This is naga's translation, the one wgpu makes natively and in Firefox.
//! Chrome (Tint) and Safari (WebKit's own compiler) translate with other
//! compilers, and every driver compiles the result again to the GPU's own
//! instructions: a close relative of what runs, not the machine code.
//!
//! Each target is written with naga's default options for it, apart from
//! the language versions named on [`Target`]; bindings with no explicit
//! mapping get the register or slot naga makes up for them.

use crate::{Options, Shader, Traced};
use gpu_puzzles_core::template::substitute;
use gpu_puzzles_core::{Case, Puzzle};

/// A language [`translate`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Metal Shading Language 2.0, as wgpu's Metal backend receives it.
    Msl,
    /// HLSL for shader model 5.1, as wgpu's Direct3D 12 backend receives it
    /// (before Microsoft's compiler).
    Hlsl,
    /// SPIR-V 1.0 as wgpu's Vulkan backend receives it, disassembled to
    /// text (one instruction a line, `%id = OpName operands`).
    Spirv,
    /// GLSL ES 3.10 (the first with compute shaders), one entry point.
    Glsl,
}

impl Target {
    /// Every target, in the order a menu lists them.
    pub const ALL: [Target; 4] = [Target::Msl, Target::Hlsl, Target::Spirv, Target::Glsl];

    /// The target's short name: `msl`, `hlsl`, `spirv`, `glsl`.
    pub fn name(self) -> &'static str {
        match self {
            Target::Msl => "msl",
            Target::Hlsl => "hlsl",
            Target::Spirv => "spirv",
            Target::Glsl => "glsl",
        }
    }

    /// The target called `name` ([`Target::name`]), if any.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The language in words, with the API that takes it: "MSL (Metal)".
    pub fn describe(self) -> &'static str {
        match self {
            Target::Msl => "MSL (Metal)",
            Target::Hlsl => "HLSL (Direct3D 12)",
            Target::Spirv => "SPIR-V (Vulkan)",
            Target::Glsl => "GLSL ES (OpenGL)",
        }
    }
}

/// `shader` (parsed and validated, its overrides applied) written in
/// `target`: every entry point, except in GLSL, which holds one, the compute
/// entry point `entry_point`.
///
/// # Errors
/// naga's message, with the causes it chains, when it cannot write the
/// module in that language (a construct the backend lacks), or when
/// `entry_point` is not a compute entry point of `shader` (GLSL).
pub fn translate(shader: &Shader, entry_point: &str, target: Target) -> Result<String, String> {
    let (module, info) = shader.parts();
    let (module, info) = (&*module, &*info);
    let failed = |e: &dyn std::error::Error| {
        format!("naga could not write this kernel as {}: {}", target.describe(), chain(e))
    };
    match target {
        Target::Msl => {
            let options = naga::back::msl::Options {
                lang_version: (2, 0),
                ..naga::back::msl::Options::default()
            };
            let pipeline = naga::back::msl::PipelineOptions::default();
            naga::back::msl::write_string(module, info, &options, &pipeline)
                .map(|(text, _)| text)
                .map_err(|e| failed(&e))
        }
        Target::Hlsl => {
            let options = naga::back::hlsl::Options::default();
            let pipeline = naga::back::hlsl::PipelineOptions::default();
            let mut text = String::new();
            naga::back::hlsl::Writer::new(&mut text, &options, &pipeline)
                .write(module, info, None)
                .map_err(|e| failed(&e))?;
            Ok(text)
        }
        Target::Spirv => {
            let options = naga::back::spv::Options {
                lang_version: (1, 0),
                ..naga::back::spv::Options::default()
            };
            let words =
                naga::back::spv::write_vec(module, info, &options, None).map_err(|e| failed(&e))?;
            let loaded = rspirv::dr::load_words(&words).map_err(|e| {
                format!("the SPIR-V naga wrote could not be read back for disassembly: {e}")
            })?;
            use rspirv::binary::Disassemble;
            Ok(loaded.disassemble())
        }
        Target::Glsl => {
            if !module
                .entry_points
                .iter()
                .any(|e| e.name == entry_point && e.stage == naga::ShaderStage::Compute)
            {
                return Err(format!("the kernel has no compute entry point `{entry_point}`"));
            }
            let options = naga::back::glsl::Options::default();
            let pipeline = naga::back::glsl::PipelineOptions {
                shader_stage: naga::ShaderStage::Compute,
                entry_point: entry_point.to_string(),
                multiview: None,
            };
            let mut text = String::new();
            naga::back::glsl::Writer::new(
                &mut text,
                module,
                info,
                &options,
                &pipeline,
                naga::proc::BoundsCheckPolicies::default(),
            )
            .and_then(|mut w| w.write())
            .map_err(|e| failed(&e))?;
            Ok(text)
        }
    }
}

/// What [`for_case`] writes for a case: the WGSL a compiler takes, the
/// judge's instrumented WGSL, or a translation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The student's WGSL with the case's placeholders (`{{workgroupSize}}`,
    /// …) filled in and `print(…)` rewritten, as every compiler gets it.
    Wgsl,
    /// The WGSL the judge dispatches: the memory checks, the heat maps'
    /// counters and the loops' budget added ([`crate::instrument`]).
    Instrumented,
    /// naga's translation for a driver ([`translate`]).
    Translated(Target),
}

impl Form {
    /// Every form, in the order a menu lists them.
    pub const ALL: [Form; 6] = [
        Form::Translated(Target::Msl),
        Form::Translated(Target::Hlsl),
        Form::Translated(Target::Spirv),
        Form::Translated(Target::Glsl),
        Form::Wgsl,
        Form::Instrumented,
    ];

    /// The form's short name: `wgsl`, `instrumented`, or the target's.
    pub fn name(self) -> &'static str {
        match self {
            Form::Wgsl => "wgsl",
            Form::Instrumented => "instrumented",
            Form::Translated(t) => t.name(),
        }
    }

    /// The form called `name` ([`Form::name`]), if any.
    pub fn from_name(name: &str) -> Option<Form> {
        Form::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The form in words, for a menu: "MSL (Metal)", "WGSL as compiled".
    pub fn describe(self) -> &'static str {
        match self {
            Form::Wgsl => "WGSL, placeholders filled in",
            Form::Instrumented => "WGSL instrumented by the judge",
            Form::Translated(t) => t.describe(),
        }
    }
}

/// `source` (the student's WGSL, before substitution) for `case` of
/// `puzzle` in `form`: substituted for the case's configuration, parsed and
/// validated by naga, then instrumented as the judge instruments it (every
/// entry point, with the racecheck) or translated (GLSL: the first entry
/// point).
///
/// # Errors
/// naga's message when the kernel does not parse or validate, or cannot be
/// instrumented or written in that form.
pub fn for_case(puzzle: &Puzzle, case: &Case, source: &str, form: Form) -> Result<String, String> {
    let text = substitute(source, &case.config).text;
    if form == Form::Wgsl {
        return Ok(text);
    }
    let shader = Shader::parse(&text).map_err(|e| e.to_string())?;
    match form {
        Form::Instrumented => {
            let traced: Vec<Traced> = puzzle
                .buffers
                .iter()
                .zip(&case.buffers)
                .map(|(b, cb)| Traced { binding: b.binding, len: cb.initial.len() as u32 })
                .collect();
            let entry_points: Vec<&str> = puzzle.entry_points.iter().map(String::as_str).collect();
            shader
                .instrument(&traced, &case.config, &entry_points, Options { racecheck: true })
                .and_then(|i| i.wgsl())
                .map_err(|e| e.to_string())
        }
        Form::Translated(target) => {
            let entry = puzzle.entry_points.first().map_or("main", String::as_str);
            translate(&shader, entry, target)
        }
        Form::Wgsl => Ok(text),
    }
}

/// An error and the causes it chains, joined by ": ".
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kernel with workgroup memory, a barrier and an atomic: each
    /// target's text holds what the language calls them.
    const KERNEL: &str = "
        @group(0) @binding(0) var<storage, read_write> out: array<f32>;
        @group(0) @binding(1) var<storage, read_write> count: atomic<u32>;
        var<workgroup> smem: array<f32, 64>;
        @compute @workgroup_size(64)
        fn main(@builtin(local_invocation_index) i: u32) {
            smem[i] = f32(i);
            workgroupBarrier();
            out[i] = smem[63u - i];
            atomicAdd(&count, 1u);
        }";

    #[test]
    fn every_target_names_the_barrier_and_the_atomic_in_its_own_words() {
        let shader = Shader::parse(KERNEL).expect("the kernel validates");
        let text = |t| translate(&shader, "main", t).unwrap_or_else(|e| panic!("{t:?}: {e}"));
        let msl = text(Target::Msl);
        assert!(msl.contains("threadgroup_barrier") && msl.contains("atomic_fetch_add"), "{msl}");
        let hlsl = text(Target::Hlsl);
        assert!(
            hlsl.contains("GroupMemoryBarrierWithGroupSync") && hlsl.contains("InterlockedAdd"),
            "{hlsl}"
        );
        let spirv = text(Target::Spirv);
        assert!(spirv.contains("OpControlBarrier") && spirv.contains("OpAtomicIAdd"), "{spirv}");
        let glsl = text(Target::Glsl);
        assert!(glsl.contains("barrier()") && glsl.contains("atomicAdd"), "{glsl}");
        assert!(glsl.contains("#version 310 es"), "{glsl}");
    }

    #[test]
    fn glsl_names_a_missing_entry_point_and_names_round_trip() {
        let shader = Shader::parse(KERNEL).expect("the kernel validates");
        let e = translate(&shader, "nope", Target::Glsl).unwrap_err();
        assert!(e.contains("`nope`"), "{e}");
        for t in Target::ALL {
            assert_eq!(Target::from_name(t.name()), Some(t));
        }
        for f in Form::ALL {
            assert_eq!(Form::from_name(f.name()), Some(f));
        }
        assert_eq!(Target::from_name("ptx"), None);
        assert_eq!(Form::from_name("ptx"), None);
    }
}
