//! A student's shader made ready once for every check of a Run: the text
//! substituted for a case's configuration, with its map back to the
//! student's lines, parsed and validated by naga, and lowered for the CPU
//! interpreter when a check first asks. The GPU run (plain and
//! instrumented), the interpreter's CPU checks, the order and subgroup
//! checks, the lesson check and the yardsticks' hints all read one
//! [`PreparedShader`]; none substitutes or parses again. A helper on
//! another thread or Web Worker, which cannot share naga's IR, prepares its
//! own from the same text.

use crate::{Program, Stop};
use gpu_puzzles_core::template::{replacements, substitute, Substituted};
use gpu_puzzles_core::{CaseConfig, Puzzle};
use gpu_puzzles_instrument::{AliasedPointers, BadPrint, NonUniformBarrier, PassError, Shader};
use gpu_puzzles_verdict::judge::ConfigProblem;
use gpu_puzzles_verdict::limits::{bindings, BindingKind};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// One student's text for one puzzle, substituted for one case
/// configuration and parsed, with the bindings it declares. Cases whose
/// configurations substitute alike (the same workgroup size, workgroup
/// count and workgroup memory size) share one.
#[derive(Debug)]
pub struct PreparedShader {
    /// The student's text, as typed; positions shown to the student are in it.
    source: Arc<str>,
    /// The text the compilers see, and the map back to `source`.
    sub: Substituted,
    /// [`PreparedShader::key_of`] the text and configuration.
    key: u64,
    /// naga's parse and validation of `sub.text`, or why it failed.
    shader: Result<Shader, PassError>,
    /// The puzzle's bindings with the access modes the text declares.
    bindings: Result<Vec<(u32, BindingKind)>, ConfigProblem>,
    /// [`PreparedShader::mentions_subgroups`].
    mentions_subgroups: bool,
    /// The module lowered for the interpreter, on first use.
    program: OnceLock<Result<Arc<Program>, Stop>>,
    /// [`PreparedShader::bad_print`], on first use.
    bad_print: OnceLock<Option<BadPrint>>,
    /// [`PreparedShader::non_uniform_barrier`], on first use.
    non_uniform_barrier: OnceLock<Option<NonUniformBarrier>>,
    /// [`PreparedShader::aliased_pointers`], on first use.
    aliased_pointers: OnceLock<Option<AliasedPointers>>,
}

/// A rule of WGSL that some engines' compilers enforce and naga does not,
/// broken by a shader: the judge's own check, with its words and place in
/// the substituted text ([`PreparedShader::broken_rule`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenRule {
    /// What happened and what to try.
    pub message: String,
    /// Byte offset of the marked span in the substituted text.
    pub offset: usize,
    /// Length of the marked span in bytes.
    pub length: usize,
}

impl PreparedShader {
    /// Substitutes `source` for `config` ([`substitute`]), parses the
    /// result with naga ([`Shader::parse`]) and reads the bindings it
    /// declares for `puzzle`'s buffers ([`bindings`]): the one substitution
    /// and the one parse of this text and configuration in a Run.
    pub fn new(puzzle: &Puzzle, source: &str, config: &CaseConfig) -> PreparedShader {
        let sub = substitute(source, config);
        let shader = Shader::parse(&sub.text);
        PreparedShader {
            source: source.into(),
            key: Self::key_of(puzzle, source, config),
            sub,
            shader,
            bindings: bindings(puzzle, source),
            mentions_subgroups: gpu_puzzles_core::wgsl::uses_subgroups(source),
            program: OnceLock::new(),
            bad_print: OnceLock::new(),
            non_uniform_barrier: OnceLock::new(),
            aliased_pointers: OnceLock::new(),
        }
    }

    /// The key of `source` written for `puzzle` and substituted for
    /// `config`: a hash of the puzzle's slug, the text and what
    /// substitution puts in it ([`replacements`]). Every cache that keys on
    /// a student's text (compiled pipelines, the interpreter's findings,
    /// order checks, prepared shaders) starts from this one function.
    pub fn key_of(puzzle: &Puzzle, source: &str, config: &CaseConfig) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (&puzzle.slug, source, replacements(config)).hash(&mut h);
        h.finish()
    }

    /// [`PreparedShader::key_of`] this shader's text and configuration.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The student's text, as typed.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The substituted text and its map back to [`PreparedShader::source`].
    pub fn sub(&self) -> &Substituted {
        &self.sub
    }

    /// naga's parse and validation of the substituted text.
    ///
    /// # Errors
    /// Why naga did not accept it ([`PassError`]); a browser's compiler
    /// may still accept it, and then says nothing the page must show.
    pub fn shader(&self) -> Result<&Shader, &PassError> {
        self.shader.as_ref()
    }

    /// The puzzle's bindings, storage buffers then uniforms, each storage
    /// buffer with the access mode the text declares
    /// ([`gpu_puzzles_verdict::limits::bindings`]).
    ///
    /// # Errors
    /// The [`ConfigProblem`] of a binding the puzzle does not have, outside
    /// group 0, or of the wrong kind.
    pub fn bindings(&self) -> Result<&[(u32, BindingKind)], &ConfigProblem> {
        self.bindings.as_deref()
    }

    /// Whether the text enables WGSL's `subgroups` extension or names a
    /// subgroup built-in value or function outside comments
    /// ([`gpu_puzzles_core::wgsl::uses_subgroups`]), parsed or not.
    pub fn mentions_subgroups(&self) -> bool {
        self.mentions_subgroups
    }

    /// The first printed value the print log cannot show
    /// ([`Shader::check_prints`]), found once for every case that shares
    /// this shader; `None` also when naga did not accept the text.
    pub fn bad_print(&self) -> Option<&BadPrint> {
        self.bad_print
            .get_or_init(|| self.shader.as_ref().ok().and_then(Shader::check_prints))
            .as_ref()
    }

    /// The first barrier not every invocation reaches
    /// ([`Shader::check_barriers`]), found once for every case that shares
    /// this shader; `None` also when naga did not accept the text.
    pub fn non_uniform_barrier(&self) -> Option<&NonUniformBarrier> {
        self.non_uniform_barrier
            .get_or_init(|| self.shader.as_ref().ok().and_then(Shader::check_barriers))
            .as_ref()
    }

    /// The first call that gives its callee two ways to reach the same
    /// memory, one of them written ([`Shader::check_aliasing`]), found once
    /// for every case that shares this shader; `None` also when naga did
    /// not accept the text.
    pub fn aliased_pointers(&self) -> Option<&AliasedPointers> {
        self.aliased_pointers
            .get_or_init(|| self.shader.as_ref().ok().and_then(Shader::check_aliasing))
            .as_ref()
    }

    /// The first rule of WGSL this shader breaks that Chromium's and
    /// Safari's compilers enforce and naga (native, and Firefox's) does not:
    /// a barrier or subgroup operation in non-uniform control flow, then
    /// aliased pointer arguments. The judge refuses such a shader itself, on
    /// every engine and before any compiler, so that a Run's verdict and
    /// message never depend on the browser (issue 88).
    pub fn broken_rule(&self) -> Option<BrokenRule> {
        if let Some(e) = self.non_uniform_barrier() {
            return Some(BrokenRule { message: e.message(), offset: e.offset, length: e.length });
        }
        self.aliased_pointers().map(|e| BrokenRule {
            message: e.message(),
            offset: e.offset,
            length: e.length,
        })
    }

    /// The module lowered for the interpreter ([`Program::validated`]),
    /// made on the first call and shared after.
    ///
    /// # Errors
    /// A constant the interpreter cannot evaluate; or, when naga did not
    /// accept the text, [`Stop::Internal`] (callers check
    /// [`PreparedShader::shader`] first).
    pub fn program(&self) -> Result<Arc<Program>, Stop> {
        self.program
            .get_or_init(|| match &self.shader {
                Ok(shader) => {
                    let (module, info) = shader.parts();
                    Program::validated(module, info).map(Arc::new)
                }
                Err(e) => Err(Stop::internal(format!("naga did not accept the shader: {e}"))),
            })
            .clone()
    }
}

/// Prepared shaders by [`PreparedShader::key_of`], so that a text and
/// configuration met again (another case of the Run, or a Run of unchanged
/// code) is neither substituted nor parsed again. Holds at most `capacity`;
/// when full it starts over.
#[derive(Debug)]
pub struct PreparedShaders {
    kept: HashMap<u64, Arc<PreparedShader>>,
    capacity: usize,
}

impl PreparedShaders {
    /// An empty set that keeps at most `capacity` shaders.
    pub fn new(capacity: usize) -> PreparedShaders {
        PreparedShaders { kept: HashMap::new(), capacity: capacity.max(1) }
    }

    /// `source` prepared for `puzzle` and `config`: the one kept, or a new
    /// one, kept.
    pub fn get(
        &mut self,
        puzzle: &Puzzle,
        source: &str,
        config: &CaseConfig,
    ) -> Arc<PreparedShader> {
        let key = PreparedShader::key_of(puzzle, source, config);
        if let Some(p) = self.kept.get(&key) {
            return p.clone();
        }
        if self.kept.len() >= self.capacity {
            self.kept.clear();
        }
        let p = Arc::new(PreparedShader::new(puzzle, source, config));
        self.kept.insert(key, p.clone());
        p
    }
}
