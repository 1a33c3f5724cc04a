//! A shader that naga parsed and validated, once per prepared case
//! (`gpu_puzzles_interp::PreparedShader` holds it for a Run), then measured,
//! checked and instrumented from the same IR.

use crate::{
    alias, chain, print, rewrite_module, uniformity, AliasedPointers, BadPrint, Instrumented,
    NonUniformBarrier, Options, PassError, Traced, CAPABILITIES,
};
use gpu_puzzles_core::CaseConfig;
use naga::AddressSpace;
use std::cell::Cell;
use std::sync::Arc;

thread_local! {
    /// naga parses made by [`Shader::parse`] on this thread ([`parses`]).
    static PARSES: Cell<usize> = const { Cell::new(0) };
}

/// How many times [`Shader::parse`] has run on the calling thread: the
/// tests count the parses of a Run with it (one per distinct prepared
/// case). A Run parses on the thread that awaits it, natively and in a
/// browser alike.
pub fn parses() -> usize {
    PARSES.with(Cell::get)
}

/// A shader that naga parsed and validated: its text (substituted WGSL),
/// the module with its overrides applied ([`with_overrides_applied`]) and
/// naga's validation of it. Cheap to clone: the three are shared, so the
/// CPU interpreter lowers the same module the runner compiles.
#[derive(Debug, Clone)]
pub struct Shader {
    pub(crate) source: Arc<str>,
    pub(crate) module: Arc<naga::Module>,
    /// naga's validation of `module` (every expression's type).
    pub(crate) info: Arc<naga::valid::ModuleInfo>,
}

impl Shader {
    /// Parses and validates `source` (substituted WGSL) with naga.
    ///
    /// # Errors
    /// [`PassError::Rejected`] with naga's message, its causes chained
    /// (wgpu natively reports only the first, such as "Function [0] 'f' is
    /// invalid"), and the byte range naga points at.
    pub fn parse(source: &str) -> Result<Self, PassError> {
        PARSES.with(|p| p.set(p.get() + 1));
        let module = naga::front::wgsl::parse_str(source).map_err(|e| PassError::Rejected {
            message: e.message().to_string(),
            span: e.labels().next().and_then(|(s, _)| s.to_range()),
        })?;
        let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), CAPABILITIES)
            .validate(&module)
            .map_err(|e| PassError::Rejected {
                message: chain(e.as_inner()),
                span: e.spans().next().and_then(|(s, _)| s.to_range()),
            })?;
        let (module, info) = with_overrides_applied(module, info);
        Ok(Shader { source: source.into(), module: Arc::new(module), info: Arc::new(info) })
    }

    /// The module and its validation, shared, for the CPU interpreter
    /// (which needs every expression's type) without validating again.
    pub fn parts(&self) -> (Arc<naga::Module>, Arc<naga::valid::ModuleInfo>) {
        (self.module.clone(), self.info.clone())
    }

    /// The module as parsed, for a native device to compile without
    /// parsing the text again.
    pub fn module(&self) -> &naga::Module {
        &self.module
    }

    /// Bytes of workgroup memory the shader declares (`var<workgroup>`),
    /// laid out as WGSL lays them out (naga's layouter). Some drivers accept
    /// more than WebGPU's limit, so the runner checks this itself to give
    /// every device the same answer.
    pub fn workgroup_memory_bytes(&self) -> u64 {
        let mut layouter = naga::proc::Layouter::default();
        if layouter.update(self.module.to_ctx()).is_err() {
            return 0;
        }
        self.module
            .global_variables
            .iter()
            .filter(|(_, g)| g.space == AddressSpace::WorkGroup)
            .map(|(_, g)| layouter[g.ty].size as u64)
            .sum()
    }

    /// The synccheck: the first barrier in non-uniform control flow, if
    /// any ([`crate::check_barriers`]).
    pub fn check_barriers(&self) -> Option<NonUniformBarrier> {
        uniformity::check_module(&self.module, &self.source)
    }

    /// WGSL's alias analysis: the first call that gives its callee two ways
    /// to reach the same memory, one of them written, if any
    /// ([`crate::AliasedPointers`]).
    pub fn check_aliasing(&self) -> Option<AliasedPointers> {
        alias::check_module(&self.module, &self.source)
    }

    /// The first printed value whose type the print log cannot show (a
    /// pointer, an array, a struct), if any ([`gpu_puzzles_core::print`]).
    pub fn check_prints(&self) -> Option<BadPrint> {
        print::check(&self.module, &self.source)
    }

    /// [`crate::instrument`] on this shader.
    ///
    /// # Errors
    /// As [`crate::instrument`], less the parsing.
    pub fn instrument(
        &self,
        buffers: &[Traced],
        config: &CaseConfig,
        entry_points: &[&str],
        options: Options,
    ) -> Result<Instrumented, PassError> {
        rewrite_module(
            (*self.module).clone(),
            &self.info,
            &self.source,
            buffers,
            config,
            entry_points,
            options,
        )
    }
}

/// `module` with every `override` declaration replaced by its default,
/// as a GPU runs it: the runner sets no pipeline constants. This gives
/// `@workgroup_size(block)` its size and every expression that names an
/// override its value, so the checks number invocations, and the CPU
/// interpreter runs workgroups and evaluates, as the GPU does. An array
/// sized by an override (`array<f32, block>`) keeps a pending size in naga's
/// IR; the checks measure it with `ArraySize::resolve`, which reads the
/// override's value from the processed module.
/// naga does the work ([`naga::back::pipeline_constants::process_overrides`],
/// which also drops items no entry point reaches); a module it cannot
/// process (an override without a default, which no pipeline can be built
/// from either) is returned as it is, for the compiler to reject.
pub fn with_overrides_applied(
    module: naga::Module,
    info: naga::valid::ModuleInfo,
) -> (naga::Module, naga::valid::ModuleInfo) {
    if module.overrides.is_empty() {
        return (module, info);
    }
    match naga::back::pipeline_constants::process_overrides(
        &module,
        &info,
        None,
        &Default::default(),
    ) {
        Ok((m, i)) => (m.into_owned(), i.into_owned()),
        Err(_) => (module, info),
    }
}
