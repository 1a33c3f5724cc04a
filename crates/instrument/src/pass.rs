//! The pass over a whole module: the spaces it traces, the trace's layout,
//! the types, globals and helper functions the rewritten code uses, every
//! function and entry point rewritten, and the result validated.

use crate::access::{self, outer_array};
use crate::rewrite::{self, renumber_calls, Cx, Helpers, Target, Vars, U32};
use crate::{
    as_dispatched, bounds, builder, print, Instrumented, Options, PassError, Traced, CAPABILITIES,
    TRACE_BINDING,
};
use gpu_puzzles_core::CaseConfig;
use gpu_puzzles_verdict::trace::{
    AccessKind, MemoryKind, Site, SpaceInfo, TraceLayout, TraceMeta, TraceSpec,
};
use naga::{
    AddressSpace, ArraySize, Function, GlobalVariable, Handle, ResourceBinding, Span, Statement,
    StorageAccess, Type, TypeInner,
};
use std::collections::HashMap;

pub(crate) fn rewrite_module(
    mut module: naga::Module,
    info: &naga::valid::ModuleInfo,
    source: &str,
    buffers: &[Traced],
    config: &CaseConfig,
    entry_points: &[&str],
    options: Options,
) -> Result<Instrumented, PassError> {
    if module.global_variables.iter().any(|(_, g)| {
        g.binding.as_ref().is_some_and(|b| b.group == 0 && b.binding == TRACE_BINDING)
    }) {
        return Err(PassError::Unsupported(format!(
            "the shader uses @binding({TRACE_BINDING}), which the instrumentation needs"
        )));
    }
    // The GPU runs as many invocations per workgroup as the shader
    // declares, whatever the case's `{{workgroupSize}}`: the trace numbers
    // those.
    let config = &as_dispatched(
        config,
        module.entry_points.iter().filter(|e| entry_points.contains(&e.name.as_str())),
    );
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).map_err(|e| {
        PassError::Unsupported(format!("naga could not lay out the shader's types: {e}"))
    })?;

    // Spaces: the puzzle's storage buffers in binding order, then the
    // workgroup variables in declaration order.
    let mut targets = HashMap::new();
    let mut global_bytes = HashMap::new();
    let mut spaces = Vec::new();
    let mut spec_buffers = Vec::new();
    let mut unchecked = Vec::new();
    for (k, b) in buffers.iter().enumerate() {
        let found = module.global_variables.iter().find(|(_, g)| {
            matches!(g.space, AddressSpace::Storage { .. })
                && g.binding.as_ref().is_some_and(|rb| rb.group == 0 && rb.binding == b.binding)
        });
        let bytes = b.len.saturating_mul(4);
        match found {
            Some((h, g)) => {
                let writable = matches!(g.space, AddressSpace::Storage { access } if access.contains(StorageAccess::STORE));
                let name = g.name.clone().unwrap_or_else(|| format!("binding {}", b.binding));
                let (name, element_words, array_word, elements) =
                    match outer_array(&module, g.ty, bytes) {
                        Some((offset, stride, n, member)) => (
                            member.map(|m| format!("{name}.{m}")).unwrap_or(name),
                            stride / 4,
                            offset / 4,
                            n,
                        ),
                        None => (name, 0, 0, b.len),
                    };
                spaces.push(SpaceInfo {
                    name,
                    memory: MemoryKind::Storage,
                    element_words,
                    array_word,
                    elements,
                    shadow_base: 0,
                    counted_words: 1,
                });
                spec_buffers.push((b.len, writable && options.racecheck));
                targets.insert(h, Target::Storage { space: k as u32 });
                global_bytes.insert(h, bytes);
            }
            None => {
                spaces.push(SpaceInfo {
                    name: format!("binding {}", b.binding),
                    memory: MemoryKind::Storage,
                    element_words: 1,
                    array_word: 0,
                    elements: b.len,
                    shadow_base: 0,
                    counted_words: 1,
                });
                spec_buffers.push((b.len, false));
            }
        }
    }
    let mut workgroup_words = 0u32;
    let mut workgroup_vars = 0u32;
    for (h, g) in module.global_variables.iter().filter(|(_, g)| g.space == AddressSpace::WorkGroup)
    {
        let bytes = layouter[g.ty].size;
        let name = g.name.clone().unwrap_or_else(|| "workgroup variable".into());
        // Named like a storage buffer: by the struct member holding its array.
        let (name, element_words, array_word, elements) = match outer_array(&module, g.ty, bytes) {
            Some((offset, stride, n, member)) => {
                (member.map(|m| format!("{name}.{m}")).unwrap_or(name), stride / 4, offset / 4, n)
            }
            None => (name, 0, 0, 0),
        };
        let space = spaces.len() as u32;
        spaces.push(SpaceInfo {
            name,
            memory: MemoryKind::Workgroup,
            element_words,
            array_word,
            elements,
            shadow_base: workgroup_words,
            counted_words: 1,
        });
        targets.insert(h, Target::Workgroup { space, shadow_base: workgroup_words });
        global_bytes.insert(h, bytes);
        workgroup_words += bytes.div_ceil(4);
        workgroup_vars += 1;
    }
    let whole_words = access::whole_element_globals(
        &module,
        &layouter,
        module
            .functions
            .iter()
            .map(|(_, f)| f)
            .chain(module.entry_points.iter().map(|e| &e.function)),
        &|g| global_bytes.get(&g).copied(),
    );
    for (g, &c) in &whole_words {
        if let Some(Target::Storage { space }) = targets.get(g) {
            spaces[*space as usize].counted_words = c;
        }
    }
    let mut eps = Vec::with_capacity(entry_points.len());
    for name in entry_points {
        match module.entry_points.iter().position(|e| e.name == *name) {
            Some(ep) => eps.push(ep),
            None => {
                return Err(PassError::Unsupported(format!(
                    "the shader has no entry point `{name}`"
                )))
            }
        }
    }
    // Then a space per thing indexed outside traced memory, for its bounds
    // checks; planned before the layout, which counts the spaces.
    let first_bounds_only = spaces.len() as u32;
    let function_checks: HashMap<Handle<Function>, _> = module
        .functions
        .iter()
        .map(|(h, f)| {
            (
                h,
                bounds::plan_bounds_checks(
                    &module,
                    f,
                    &info[h],
                    &targets,
                    first_bounds_only,
                    &mut spaces,
                ),
            )
        })
        .collect();
    let entry_checks: Vec<_> = eps
        .iter()
        .map(|&ep| {
            bounds::plan_bounds_checks(
                &module,
                &module.entry_points[ep].function,
                info.get_entry_point(ep),
                &targets,
                first_bounds_only,
                &mut spaces,
            )
        })
        .collect();
    let print_fn = print::print_function(&module);
    let (mut function_prints, entry_prints) = print::plan_module(&module, &eps, source)
        .map_err(|e| PassError::Rejected { message: e.message, span: Some(e.span) })?;
    let spec = TraceSpec {
        buffers: spec_buffers,
        workgroup_words: if options.racecheck { workgroup_words } else { 0 },
        workgroup_vars,
        bounds_only: spaces.len() as u32 - first_bounds_only,
        dispatches: entry_points.len() as u32,
        prints: print_fn.is_some(),
    };
    let layout = TraceLayout::new(&spec, config);
    if !options.racecheck {
        unchecked.push("races (the racecheck's shadow memory would not fit this device's buffer limit for this case)".to_string());
    } else if layout.storage_keys.is_none() {
        unchecked.push(
            "races in storage buffers (the dispatch has too many invocations to number)"
                .to_string(),
        );
    }

    // Types and globals the rewritten code uses.
    let u32_ty =
        module.types.insert(Type { name: None, inner: TypeInner::Scalar(U32) }, Span::UNDEFINED);
    let atomic_ty =
        module.types.insert(Type { name: None, inner: TypeInner::Atomic(U32) }, Span::UNDEFINED);
    let trace_ty = module.types.insert(
        Type {
            name: None,
            inner: TypeInner::Array { base: atomic_ty, size: ArraySize::Dynamic, stride: 4 },
        },
        Span::UNDEFINED,
    );
    let vec3_ty = module.types.insert(
        Type { name: None, inner: TypeInner::Vector { size: naga::VectorSize::Tri, scalar: U32 } },
        Span::UNDEFINED,
    );
    let trace = module.global_variables.append(
        GlobalVariable {
            name: Some("gp_trace".into()),
            space: AddressSpace::Storage { access: StorageAccess::LOAD | StorageAccess::STORE },
            binding: Some(ResourceBinding { group: 0, binding: TRACE_BINDING }),
            ty: trace_ty,
            init: None,
            memory_decorations: Default::default(),
        },
        Span::UNDEFINED,
    );
    let mut private = |name: &str| {
        module.global_variables.append(
            GlobalVariable {
                name: Some(name.into()),
                space: AddressSpace::Private,
                binding: None,
                ty: u32_ty,
                init: None,
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        )
    };
    let vars = Vars {
        invocation: private("gp_invocation"),
        local: private("gp_local"),
        workgroup: private("gp_workgroup"),
        dispatch: private("gp_dispatch"),
        storage_epoch: private("gp_storage_epoch"),
        workgroup_epoch: private("gp_workgroup_epoch"),
        counters: [
            "gp_global_reads",
            "gp_global_writes",
            "gp_workgroup_reads",
            "gp_workgroup_writes",
            "gp_barriers",
        ]
        .map(&mut private),
        hazards: [0, 1, 2]
            .map(|k| rewrite::PENDING_HAZARD.map(|v| private(&format!("gp_hazard{k}_{v}")))),
        oob: [0, 1, 2].map(|k| rewrite::PENDING_OOB.map(|v| private(&format!("gp_oob{k}_{v}")))),
    };

    // Helper functions first: naga's validator wants a function's callees
    // before it. Placeholders now (their handles go into the pass's state),
    // bodies once the state exists; the shader's own functions follow, and
    // every call to them is renumbered.
    let mut functions = naga::Arena::new();
    let mut placeholder = || functions.append(Function::default(), Span::UNDEFINED);
    let helpers = Helpers {
        hazard: placeholder(),
        oob: placeholder(),
        race: [[placeholder(), placeholder()], [placeholder(), placeholder()]],
        used: Default::default(),
    };
    let mut renumbered = HashMap::new();
    for (old, f, span) in module.functions.drain() {
        renumbered.insert(old, functions.append(f, span));
    }
    module.functions = functions;
    for (_, f) in module.functions.iter_mut() {
        renumber_calls(f, &renumbered);
    }
    for ep in module.entry_points.iter_mut() {
        renumber_calls(&mut ep.function, &renumbered);
    }
    let mut function_checks: Vec<_> = function_checks
        .into_iter()
        .map(|(old, checks)| {
            (renumbered[&old], checks, function_prints.remove(&old).unwrap_or_default())
        })
        .collect();
    function_checks.sort_by_key(|(h, _, _)| h.index());

    let mut cx = Cx {
        trace,
        u32_ty,
        vars,
        targets,
        checks: HashMap::new(),
        global_bytes,
        layout: layout.clone(),
        source,
        sites: vec![Site { line: 0, column: 0 }],
        site_access: vec![(u32::MAX, AccessKind::Read)],
        loop_lines: Vec::new(),
        unchecked,
        racecheck: options.racecheck,
        helpers,
        whole_words,
        print_fn: print_fn.map(|h| renumbered[&h]),
        prints: Default::default(),
        print_shapes: Default::default(),
    };
    for (h, checks, prints) in function_checks {
        cx.checks = checks;
        cx.prints = prints;
        let mut f = std::mem::take(&mut module.functions[h]);
        let body = std::mem::take(&mut f.body);
        f.body = cx.rewrite_block(&module, &layouter, &mut f, body);
        module.functions[h] = f;
    }
    for (dispatch, (&ep, checks)) in eps.iter().zip(entry_checks).enumerate() {
        cx.checks = checks;
        cx.prints = entry_prints.get(dispatch).cloned().unwrap_or_default();
        let mut f = std::mem::take(&mut module.entry_points[ep].function);
        let body = std::mem::take(&mut f.body);
        let mut body = cx.rewrite_block(&module, &layouter, &mut f, body);
        if !matches!(body.last(), Some(Statement::Return { .. })) {
            body.push(Statement::Return { value: None }, Span::UNDEFINED);
        }
        // The entry point's rewritten body becomes a function of its own,
        // `gp_<name>`, with the same arguments (without their bindings),
        // and the entry point calls it once and then ends the invocation
        // (`Cx::flush_pending`): one copy of that code, whichever `return`
        // the body took (each copy costs a software adapter's compiler).
        let inner = Function {
            name: Some(format!("gp_{}", module.entry_points[ep].name)),
            arguments: f
                .arguments
                .iter()
                .map(|a| naga::FunctionArgument { name: a.name.clone(), ty: a.ty, binding: None })
                .collect(),
            result: None,
            local_variables: std::mem::take(&mut f.local_variables),
            expressions: std::mem::take(&mut f.expressions),
            named_expressions: std::mem::take(&mut f.named_expressions),
            body,
            diagnostic_filter_leaf: f.diagnostic_filter_leaf,
        };
        let inner = module.functions.append(inner, Span::UNDEFINED);
        let arguments = (0..f.arguments.len())
            .map(|i| {
                f.expressions.append(naga::Expression::FunctionArgument(i as u32), Span::UNDEFINED)
            })
            .collect();
        let mut new_body =
            cx.prelude(&mut f, &module.types, vec3_ty, u32_ty, config, dispatch as u32);
        new_body
            .push(Statement::Call { function: inner, arguments, result: None }, Span::UNDEFINED);
        let mut b = builder::Builder::new(&mut f);
        cx.flush_pending(&mut b);
        new_body.extend_block(b.finish());
        new_body.push(Statement::Return { value: None }, Span::UNDEFINED);
        f.body = new_body;
        module.entry_points[ep].function = f;
    }
    cx.build_helpers(&mut module, u32_ty);
    naga::compact::compact(&mut module, naga::compact::KeepUnused::Yes);

    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), CAPABILITIES)
        .validate(&module)
        .map_err(|e| {
            PassError::Unsupported(format!(
                "the instrumented shader did not validate ({}); this is a gap in the pass",
                chain(e.as_inner())
            ))
        })?;
    // A site visited more than once (a pointer both loaded and stored, a
    // function called from two entry points) is noted once.
    let mut noted = std::collections::HashSet::new();
    let unchecked = cx.unchecked.into_iter().filter(|n| noted.insert(n.clone())).collect();
    let meta = TraceMeta {
        layout,
        spaces,
        sites: cx.sites,
        site_access: cx.site_access,
        loop_lines: cx.loop_lines,
        entry_points: entry_points.iter().map(|s| s.to_string()).collect(),
        unchecked,
        prints: cx.print_shapes,
    };
    Ok(Instrumented { module, info, meta })
}

/// An error and its sources, joined: naga's top-level messages are vague.
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut cur = e.source();
    while let Some(s) = cur {
        parts.push(s.to_string());
        cur = s.source();
    }
    parts.join(": ")
}
