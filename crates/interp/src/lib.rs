//! A WGSL interpreter for the puzzles' compute shaders: the debugger's
//! engine, and the judge on browsers without WebGPU.
//!
//! It runs a naga [`naga::Module`]'s compute entry point on the CPU with the
//! same bindings, buffers and configuration as the GPU runner. Every
//! invocation has its own private state and call stack; the invocations of
//! a workgroup advance together and park at `workgroupBarrier`,
//! `storageBarrier` and `workgroupUniformLoad` until the whole workgroup has
//! arrived ([`dispatch::Dispatch`]). Workgroups run one after another, each
//! with freshly zeroed workgroup memory (WebGPU zero-initialises it).
//!
//! Subgroup operations run for the active lanes of a subgroup together, at
//! a subgroup size the caller chooses ([`subgroup`]).
//!
//! What it cannot run (textures, `f16`, overrides, …) stops the
//! run with [`Stop::Unsupported`] and the construct's place, never a panic
//! and never a wrong value. A loop that runs past
//! [`gpu_puzzles_verdict::trace::LOOP_BUDGET`] iterations stops with
//! [`Stop::RunawayLoop`], as the instrumented GPU run does.
//!
//! Each function is prepared once per shader: its statements lowered to a
//! flat list of instructions ([`lower`]), and its commonest expressions
//! (operators, conversions, scalar loads, indexing through pointers) given
//! quick forms with their strides, member offsets and loaded kinds worked
//! out (the private `fast` module): with them the interpreter judged the
//! heaviest references' random cases about 1.25 times as fast as with the
//! general evaluator over naga's expression tree alone. The quick forms
//! write their results into the call's value cache in place (a copy of a
//! whole value through the stack stalled on nearly every expression), and
//! calls and workgroups reuse the buffers of the ones before them
//! (docs/performance.md, sixteenth session).
//!
//! Shapes and units: buffers are runs of 32-bit little-endian words,
//! offsets are in bytes, and values are laid out by WGSL's memory layout
//! rules ([`layout`]). Spans are byte ranges of the text naga parsed (the
//! substituted shader); [`emulate`] maps them to the student's lines.

pub mod debug;
pub mod dispatch;
pub mod emulate;
mod eval;
pub mod exec;
mod expr;
mod fast;
pub mod layout;
pub mod lower;
pub mod math;
pub mod prepared;
pub use prepared::{BrokenRule, PreparedShader, PreparedShaders};
pub mod race;
pub mod subgroup;
pub mod value;

use layout::Layouts;
use lower::Code;
use naga::valid::{FunctionInfo, ModuleInfo};
use naga::{Handle, Module, Span};
use std::sync::Arc;
use value::Value;

/// Why a run stopped before the end, or could not start.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// The shader uses something the interpreter cannot run; `what` names
    /// it ("a texture", "the built-in function determinant").
    Unsupported {
        /// The construct.
        what: String,
        /// Where, in the parsed text, when known.
        span: Option<Span>,
    },
    /// A loop ran past [`gpu_puzzles_verdict::trace::LOOP_BUDGET`] iterations.
    RunawayLoop {
        /// The loop statement's span.
        span: Span,
        /// The invocation, by its row-major number over the dispatch.
        invocation: u32,
    },
    /// Some invocations of a workgroup wait at a barrier that others never
    /// reach (they finished, or wait at another barrier).
    BarrierNotReached {
        /// A barrier some invocations wait at.
        span: Span,
        /// The workgroup, by linear number.
        workgroup: u32,
        /// How many invocations wait there, and how many the workgroup has.
        waiting: u32,
        /// Invocations in the workgroup.
        invocations: u32,
    },
    /// A bug of ours (an IR shape naga's validator should have excluded).
    Internal {
        /// What was found.
        message: String,
        /// Where, when known.
        span: Option<Span>,
    },
}

/// Why [`Program::parse`] gave no program.
#[derive(Debug, Clone, PartialEq)]
pub enum ParseError {
    /// naga did not parse the text: its message, with the line and column
    /// (from 1) it points at when it points at one.
    Syntax {
        /// naga's message, with the source excerpt it draws.
        message: String,
        /// Line and column of the first label.
        at: Option<(u32, u32)>,
    },
    /// naga's validator rejected the module, or a constant could not be
    /// evaluated.
    Invalid(Stop),
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseError::Syntax { message, .. } => f.write_str(message),
            ParseError::Invalid(stop) => write!(f, "{stop:?}"),
        }
    }
}

impl std::error::Error for ParseError {}

impl Stop {
    /// An unsupported construct, its place filled in by the caller.
    pub fn unsupported(what: impl Into<String>) -> Stop {
        Stop::Unsupported { what: what.into(), span: None }
    }

    /// An internal error, its place filled in by the caller.
    pub fn internal(message: String) -> Stop {
        Stop::Internal { message, span: None }
    }

    /// The same stop, placed at `at` if it has no place yet.
    pub fn at(self, at: Span) -> Stop {
        match self {
            Stop::Unsupported { what, span: None } => Stop::Unsupported { what, span: Some(at) },
            Stop::Internal { message, span: None } => Stop::Internal { message, span: Some(at) },
            other => other,
        }
    }

    /// The byte range in the parsed text this stop points at.
    pub fn span(&self) -> Option<Span> {
        match self {
            Stop::Unsupported { span, .. } | Stop::Internal { span, .. } => *span,
            Stop::RunawayLoop { span, .. } | Stop::BarrierNotReached { span, .. } => Some(*span),
        }
    }
}

/// A function of the program: an entry point (by index) or an ordinary
/// function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FuncId {
    /// `module.entry_points[k]`.
    Entry(u32),
    /// `module.functions[h]`.
    Function(Handle<naga::Function>),
}

/// A validated module made ready to run: its functions lowered to
/// instructions, its types laid out and its constants evaluated.
#[derive(Debug)]
pub struct Program {
    /// The module as naga parsed it, shared with the
    /// [`gpu_puzzles_instrument::Shader`] it came from.
    pub module: Arc<Module>,
    /// naga's validation results: every expression's type.
    pub info: Arc<ModuleInfo>,
    /// Type layouts.
    pub layouts: Layouts,
    entries: Vec<Code>,
    functions: Vec<Code>,
    constants: Vec<Value>,
}

impl Program {
    /// Parses and validates `text` (WGSL) and prepares it.
    ///
    /// # Errors
    /// [`ParseError::Syntax`] when naga does not parse the text (a front
    /// end reports the browser's compiler messages instead; this is a last
    /// resort), [`ParseError::Invalid`] when it does not validate or a
    /// constant cannot be evaluated.
    pub fn parse(text: &str) -> Result<Program, ParseError> {
        let mut text = text.to_string();
        gpu_puzzles_core::wgsl::blank_enables(&mut text);
        let module = naga::front::wgsl::parse_str(&text).map_err(|e| ParseError::Syntax {
            message: e.emit_to_string(&text),
            at: e.location(&text).map(|l| (l.line_number, l.line_position)),
        })?;
        Program::new(module).map_err(ParseError::Invalid)
    }

    /// Prepares a parsed module.
    ///
    /// # Errors
    /// naga's validation error, or a constant the interpreter cannot
    /// evaluate.
    pub fn new(module: Module) -> Result<Program, Stop> {
        let info = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            gpu_puzzles_instrument::CAPABILITIES,
        )
        .validate(&module)
        .map_err(|e| Stop::internal(format!("naga rejected the shader: {}", e.as_inner())))?;
        Program::validated(Arc::new(module), Arc::new(info))
    }

    /// Prepares a module naga has already validated, with `info` its
    /// validation ([`gpu_puzzles_instrument::Shader::parts`]).
    ///
    /// # Errors
    /// A constant the interpreter cannot evaluate.
    pub fn validated(module: Arc<Module>, info: Arc<ModuleInfo>) -> Result<Program, Stop> {
        let layouts = Layouts::new(&module);
        let mut entries: Vec<Code> =
            module.entry_points.iter().map(|e| Code::lower(&e.function.body)).collect();
        let mut functions: Vec<Code> =
            module.functions.iter().map(|(_, f)| Code::lower(&f.body)).collect();
        let print_fn = module
            .functions
            .iter()
            .find(|(_, f)| f.name.as_deref() == Some(gpu_puzzles_core::print::PRINT_FUNCTION))
            .map(|(h, _)| h);
        if let Some(print_fn) = print_fn {
            for (code, e) in entries.iter_mut().zip(&module.entry_points) {
                code.mark_prints(print_fn, &e.function);
            }
            for (code, (_, f)) in functions.iter_mut().zip(module.functions.iter()) {
                code.mark_prints(print_fn, f);
            }
        }
        for (k, (code, e)) in entries.iter_mut().zip(&module.entry_points).enumerate() {
            code.quick = fast::plan(&module, &layouts, &e.function, info.get_entry_point(k));
        }
        for (code, (h, f)) in functions.iter_mut().zip(module.functions.iter()) {
            code.quick = fast::plan(&module, &layouts, f, &info[h]);
        }
        let mut program =
            Program { module, info, layouts, entries, functions, constants: Vec::new() };
        let mut constants = Vec::with_capacity(program.module.constants.len());
        for (_, c) in program.module.constants.iter() {
            constants.push(eval::constant(
                &program,
                &program.module.global_expressions,
                c.init,
                &constants,
            )?);
        }
        program.constants = constants;
        Ok(program)
    }

    /// Whether the shader uses subgroups: a subgroup operation anywhere, or
    /// a subgroup built-in value as an entry point input. Its results can
    /// then depend on the subgroup size.
    pub fn uses_subgroups(&self) -> bool {
        let op = self
            .entries
            .iter()
            .chain(&self.functions)
            .any(|c| c.insts.iter().any(|i| matches!(i, lower::Inst::Subgroup(_))));
        let subgroup_builtin = |b: &Option<naga::Binding>| {
            matches!(
                b,
                Some(naga::Binding::BuiltIn(
                    naga::BuiltIn::SubgroupSize
                        | naga::BuiltIn::SubgroupInvocationId
                        | naga::BuiltIn::SubgroupId
                        | naga::BuiltIn::NumSubgroups
                ))
            )
        };
        let input = self.module.entry_points.iter().flat_map(|e| &e.function.arguments).any(|a| {
            subgroup_builtin(&a.binding)
                || match &self.module.types[a.ty].inner {
                    naga::TypeInner::Struct { members, .. } => {
                        members.iter().any(|m| subgroup_builtin(&m.binding))
                    }
                    _ => false,
                }
        });
        op || input
    }

    /// The entry point named `name`, if it is a compute one.
    pub fn entry_point(&self, name: &str) -> Option<usize> {
        self.module
            .entry_points
            .iter()
            .position(|e| e.name == name && e.stage == naga::ShaderStage::Compute)
    }

    /// A function's IR.
    pub fn function(&self, f: FuncId) -> &naga::Function {
        match f {
            FuncId::Entry(k) => &self.module.entry_points[k as usize].function,
            FuncId::Function(h) => &self.module.functions[h],
        }
    }

    /// A function's instructions.
    pub fn code(&self, f: FuncId) -> &Code {
        match f {
            FuncId::Entry(k) => &self.entries[k as usize],
            FuncId::Function(h) => &self.functions[h.index()],
        }
    }

    /// naga's analysis of a function (its expressions' types).
    pub fn function_info(&self, f: FuncId) -> &FunctionInfo {
        match f {
            FuncId::Entry(k) => self.info.get_entry_point(k as usize),
            FuncId::Function(h) => &self.info[h],
        }
    }

    /// The value of a module-scope constant.
    pub fn constant(&self, c: Handle<naga::Constant>) -> &Value {
        &self.constants[c.index()]
    }
}
