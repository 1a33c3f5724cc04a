//! Checking a manifest field by field and turning its cases into the
//! model's [`Case`]s, computing expected values with the reference.

use super::problems::{is_identifier, Validator};
use crate::format::{CaseSpec, CompareSpec, ManifestFile, Role};
use crate::generate::{checked_len, convert, initial_values};

/// What every case of a puzzle is checked against: its bindings and its
/// reference.
#[derive(Clone, Copy)]
pub(super) struct Interface<'a> {
    /// Storage buffers, sorted by binding.
    pub buffers: &'a [Buffer],
    /// Uniform buffers, sorted by binding.
    pub uniforms: &'a [Uniform],
    /// The dispatch list each case expands.
    pub plan: &'a [crate::model::DispatchPlan],
    /// The reference, when the manifest names a known one.
    pub reference: Option<reference::Reference>,
    /// The manifest names a reference (known or not: an unknown name is
    /// reported once, not for every case).
    pub names_reference: bool,
}
use crate::model::reference_input;
use crate::model::{
    Buffer, Case, CaseBuffer, CaseConfig, Contents, DeferredExpected, Recipe, Uniform, Values,
};
use gpu_puzzles_reference as reference;
use std::collections::{BTreeMap, BTreeSet};

impl Validator {
    pub(super) fn check_bindings(
        &mut self,
        m: &ManifestFile,
        buffer_lines: &[usize],
    ) -> (Vec<Buffer>, Vec<Uniform>) {
        let mut bindings = BTreeMap::new();
        let mut names = BTreeSet::new();
        let mut buffers = Vec::new();
        for (i, b) in m.buffers.iter().enumerate() {
            let line = buffer_lines.get(i).copied();
            let field = format!("buffer `{}`", b.name);
            if !is_identifier(&b.name) {
                self.at(line, &field, "`name` must be a WGSL identifier (letters, digits, `_`)");
            }
            if !names.insert(b.name.clone()) {
                self.at(line, &field, "the name is used twice");
            }
            if let Some(other) = bindings.insert(b.binding, b.name.clone()) {
                self.at(line, &field, &format!("binding {} is also used by `{other}`", b.binding));
            }
            if b.view == crate::format::BufferView::Rgba8
                && b.element != crate::format::ElementType::U32
            {
                self.at(
                    line,
                    &field,
                    "`view = \"rgba8\"` needs `type = \"u32\"`: each element is one pixel packed as `pack4x8unorm` packs it",
                );
            }
            if b.format != crate::format::WordFormat::Number
                && b.element != crate::format::ElementType::U32
            {
                self.at(
                    line,
                    &format!("{field}.format"),
                    "`format` tells how a grid writes each word of packed data: it needs `type = \"u32\"`",
                );
            }
            if b.scale.is_some_and(|[lo, hi]| !(lo < hi && lo.is_finite() && hi.is_finite())) {
                self.at(
                    line,
                    &format!("{field}.scale"),
                    "give `[lo, hi]`, two finite numbers with lo < hi",
                );
            }
            buffers.push(Buffer {
                name: b.name.clone(),
                binding: b.binding,
                element: b.element,
                role: b.role,
                view: b.view,
                scale: b.scale,
                format: b.format,
            });
        }
        let mut uniforms = Vec::new();
        for u in &m.uniforms {
            let field = format!("uniform `{}`", u.name);
            if !is_identifier(&u.name) {
                self.at(None, &field, "`name` must be a WGSL identifier");
            }
            if !names.insert(u.name.clone()) {
                self.at(None, &field, "the name is used twice");
            }
            if let Some(other) = bindings.insert(u.binding, u.name.clone()) {
                self.at(None, &field, &format!("binding {} is also used by `{other}`", u.binding));
            }
            if u.fields.is_empty() {
                self.at(None, &field, "has no fields");
            }
            let mut field_names = BTreeSet::new();
            for f in &u.fields {
                if !field_names.insert(f.name.as_str()) {
                    self.at(None, &field, &format!("field `{}` is declared twice", f.name));
                }
            }
            uniforms.push(Uniform {
                name: u.name.clone(),
                binding: u.binding,
                fields: u.fields.iter().map(|f| (f.name.clone(), f.scalar)).collect(),
            });
        }
        if m.buffers.is_empty() {
            self.at(None, "buffer", "no storage buffers declared");
        } else if !m.buffers.iter().any(|b| b.role != Role::Input) {
            self.at(
                None,
                "buffer",
                "no output: at least one buffer needs `role = \"output\"` or `\"input-output\"`",
            );
        }
        buffers.sort_by_key(|b| b.binding);
        uniforms.sort_by_key(|u| u.binding);
        (buffers, uniforms)
    }

    /// Checks case `number` (written at `line` of the manifest, when known)
    /// against the puzzle's `interface` and turns it into the model, with
    /// its expected values; `None` after reporting its problems.
    pub(super) fn check_case(
        &mut self,
        spec: &CaseSpec,
        number: usize,
        line: Option<usize>,
        interface: &Interface,
        compare: CompareSpec,
    ) -> Option<Case> {
        let Interface { buffers, uniforms, plan, reference, names_reference } = *interface;
        let before = self.problems.len();
        let at = format!("case {number}");
        let mut err =
            |s: &mut Self, field: &str, msg: &str| s.at(line, &format!("{at} › {field}"), msg);
        if spec.workgroup_size.contains(&0) {
            err(self, "workgroup_size", "every dimension must be at least 1");
        }
        if spec.workgroups.contains(&0) {
            err(self, "workgroups", "every dimension must be at least 1");
        }
        if spec.workgroup_memory.is_some_and(|m| m.contains(&0)) {
            err(
                self,
                "workgroup_memory",
                "every dimension must be at least 1 (leave it out if the puzzle uses none)",
            );
        }
        if !(compare.abs >= 0.0 && compare.rel >= 0.0) {
            err(self, "compare", "tolerances must be zero or positive");
        }
        for name in spec.buffers.keys() {
            if !buffers.iter().any(|b| &b.name == name) {
                err(self, &format!("buffers.{name}"), "no `[[buffer]]` has this name");
            }
        }
        let mut case_buffers = Vec::new();
        for b in buffers {
            let init = spec.buffers.get(&b.name).cloned().unwrap_or_default();
            let field = format!("buffers.{}", b.name);
            case_buffers.push(match b.role {
                Role::Input | Role::InputOutput if spec.performance.is_some() => match checked_len(&init, b.element) {
                    Ok(len) => {
                        check_shape(self, &mut err, &field, init.shape, len);
                        let (shape, init, element) = (init.shape, init.clone(), b.element);
                        let initial = Contents::generated(len, Recipe::Init(init, element));
                        Some(CaseBuffer { initial, expected: None, shape })
                    }
                    Err(msg) => {
                        err(self, &field, &msg);
                        None
                    }
                },
                Role::Input | Role::InputOutput => match initial_values(&init, b.element) {
                    Ok(values) => {
                        if init.expected.is_some() && b.role == Role::Input {
                            err(self, &field, "`expected` is only for outputs");
                        }
                        check_shape(self, &mut err, &field, init.shape, values.len());
                        // Generated contents keep their recipe (it serialises smaller).
                        let initial = if init.values.is_some() { values.into() } else { Contents::made(values, Recipe::Init(init.clone(), b.element)) };
                        Some(CaseBuffer { initial, expected: None, shape: init.shape })
                    }
                    Err(msg) => {
                        err(self, &field, &msg);
                        None
                    }
                },
                Role::Output => {
                    if init.values.is_some() || init.arange.is_some() || init.fill.is_some() || init.random.is_some() {
                        err(self, &field, "outputs start zeroed: give `len`, `shape` or `expected`, not contents");
                    }
                    if let (Some(len), Some([r, c])) = (init.len, init.shape) {
                        if len as usize != r as usize * c as usize {
                            err(self, &format!("{field}.shape"), &format!("{r} × {c} = {} but `len` is {len}", r as usize * c as usize));
                        }
                    }
                    let declared = init.len.map(|n| n as usize).or(init.shape.map(|[r, c]| r as usize * c as usize));
                    if spec.performance.is_some() && declared.is_none() {
                        err(self, &field, "a performance case needs `len` (or `shape`) on every output: its expected values are computed only when it runs");
                    }
                    let (element, len) = (b.element, declared.unwrap_or(0));
                    let initial = if spec.performance.is_some() {
                        Contents::generated(len, Recipe::Zeros(element))
                    } else {
                        Contents::made(Values::zeros(element, len), Recipe::Zeros(element))
                    };
                    Some(CaseBuffer { initial, expected: None, shape: init.shape })
                }
            });
        }
        let uniform_bytes = self.check_uniforms(spec, line, &at, uniforms, plan);
        if self.problems.len() > before {
            return None;
        }
        let mut case_buffers: Vec<CaseBuffer> =
            case_buffers.into_iter().map(Option::unwrap).collect();
        let config = CaseConfig {
            workgroup_size: spec.workgroup_size,
            workgroups: spec.workgroups,
            workgroup_memory: spec.workgroup_memory,
        };
        if let Some(p) = spec.performance {
            if spec.hidden {
                err(self, "hidden", "a performance case shows no data anyway; leave `hidden` out");
            }
            if spec.buffers.values().any(|b| b.expected.is_some()) {
                err(
                    self,
                    "expected",
                    "a performance case takes its expected values from the reference function",
                );
            }
            if p.flops == Some(0) || p.bytes == Some(0) {
                err(self, "performance", "counts must be positive");
            }
            let Some(reference) = reference else {
                err(
                    self,
                    "performance",
                    "a performance case needs the puzzle's `reference` function",
                );
                return None;
            };
            if p.sample == Some(0) {
                err(self, "performance.sample", "is a count of elements to check: at least 1");
            }
            if p.sample.is_some() && reference.at.is_none() {
                let names: Vec<&str> = reference::SAMPLED.iter().map(|(n, _)| *n).collect();
                err(
                    self,
                    "performance.sample",
                    &format!("this puzzle's reference has no per-element form to check a sample with; those that have one: {}", names.join(", ")),
                );
            }
            if self.problems.len() > before {
                return None;
            }
            return self.with_dispatches(
                Case {
                    number,
                    name: spec.name.clone().unwrap_or_else(|| format!("Case {number}")),
                    hidden: false,
                    config,
                    buffers: case_buffers,
                    uniforms: uniform_bytes,
                    compare,
                    performance: Some(p),
                    deferred: Some(DeferredExpected::new(
                        reference,
                        spec.uniforms.clone(),
                        p.sample,
                    )),
                    random_seed: None,
                    dispatches: Vec::new(),
                },
                interface,
                line,
                &at,
            );
        }
        // Expected values: literal ones first, the rest from the reference.
        let compared: Vec<usize> =
            (0..buffers.len()).filter(|&i| buffers[i].role != Role::Input).collect();
        let needs_reference = compared.iter().any(|&i| {
            spec.buffers.get(&buffers[i].name).and_then(|b| b.expected.as_ref()).is_none()
        });
        let computed = if needs_reference {
            match reference {
                Some(f) => {
                    let input = reference_input(&config, buffers, &case_buffers, &spec.uniforms);
                    match (f.all)(&input) {
                        Ok(out) if out.len() == compared.len() => Some(out),
                        Ok(out) => {
                            err(self, "reference", &format!("the reference function gives {} outputs but the puzzle compares {}", out.len(), compared.len()));
                            None
                        }
                        Err(msg) => {
                            err(self, "reference", &msg.to_string());
                            None
                        }
                    }
                }
                None if names_reference => None,
                None => {
                    err(self, "expected", "an output has no `expected` values and the puzzle names no `reference` function");
                    None
                }
            }
        } else {
            None
        };
        for (k, &i) in compared.iter().enumerate() {
            let b = &buffers[i];
            let field = format!("buffers.{}", b.name);
            let init = spec.buffers.get(&b.name).cloned().unwrap_or_default();
            let (expected, ref_shape) = match &init.expected {
                Some(lit) => match convert(lit, b.element) {
                    Ok(v) => (v, None),
                    Err(msg) => {
                        err(self, &format!("{field}.expected"), &msg);
                        continue;
                    }
                },
                None => match &computed {
                    Some(out) => out[k].clone(),
                    None => continue,
                },
            };
            if expected.element() != b.element {
                err(
                    self,
                    &field,
                    &format!(
                        "the reference gives {} values for a {} buffer",
                        expected.element().wgsl(),
                        b.element.wgsl()
                    ),
                );
                continue;
            }
            let cb = &mut case_buffers[i];
            if b.role == Role::InputOutput && expected.len() != cb.initial.len() {
                err(
                    self,
                    &field,
                    &format!(
                        "starts with {} elements but {} are expected",
                        cb.initial.len(),
                        expected.len()
                    ),
                );
            }
            if let Some(len) = init.len {
                if len as usize != expected.len() {
                    err(
                        self,
                        &format!("{field}.len"),
                        &format!("is {len} but {} values are expected", expected.len()),
                    );
                }
            }
            cb.shape = init.shape.or(ref_shape);
            check_shape(self, &mut err, &field, cb.shape, expected.len());
            if b.role == Role::Output {
                if expected.is_empty() {
                    err(self, &field, "an output needs at least one element");
                }
                // Zeros keep their recipe: they serialise as a few bytes.
                cb.initial = Contents::made(
                    Values::zeros(b.element, expected.len()),
                    Recipe::Zeros(b.element),
                );
            }
            cb.expected = Some(expected);
        }
        if self.problems.len() > before {
            return None;
        }
        self.with_dispatches(
            Case {
                number,
                name: spec.name.clone().unwrap_or_else(|| format!("Case {number}")),
                hidden: spec.hidden,
                config,
                buffers: case_buffers,
                uniforms: uniform_bytes,
                compare,
                performance: None,
                deferred: None,
                random_seed: None,
                dispatches: Vec::new(),
            },
            interface,
            line,
            &at,
        )
    }

    /// `case` with its dispatch list expanded, or `None` after reporting
    /// why it cannot be.
    fn with_dispatches(
        &mut self,
        mut case: Case,
        interface: &Interface,
        line: Option<usize>,
        at: &str,
    ) -> Option<Case> {
        match super::dispatch::expand_for(
            interface.plan,
            interface.buffers,
            interface.uniforms,
            &mut case,
        ) {
            Ok(()) => Some(case),
            Err(e) => {
                self.at(line, &format!("{at} › dispatch"), &e);
                None
            }
        }
    }

    pub(super) fn check_uniforms(
        &mut self,
        spec: &CaseSpec,
        line: Option<usize>,
        at: &str,
        uniforms: &[Uniform],
        plan: &[crate::model::DispatchPlan],
    ) -> Vec<Vec<u8>> {
        for name in spec.uniforms.keys() {
            if !uniforms.iter().any(|u| &u.name == name) {
                self.at(line, &format!("{at} › uniforms.{name}"), "no `[[uniform]]` has this name");
            }
        }
        let mut out = Vec::new();
        for (k, u) in uniforms.iter().enumerate() {
            // A per-dispatch uniform holds zeros outside its dispatches.
            if super::dispatch::per_dispatch(plan).any(|p| p as usize == k) {
                if spec.uniforms.contains_key(&u.name) {
                    self.at(
                        line,
                        &format!("{at} › uniforms.{}", u.name),
                        "is set per dispatch by `[[dispatch]]`: leave it out of the case",
                    );
                }
                out.push(vec![0; (4 * u.fields.len()).div_ceil(16).max(1) * 16]);
                continue;
            }
            let given = spec.uniforms.get(&u.name).cloned().unwrap_or_default();
            let mut bytes = Vec::new();
            for (fname, scalar) in &u.fields {
                let field = format!("{at} › uniforms.{}.{fname}", u.name);
                let Some(&v) = given.get(fname) else {
                    self.at(line, &field, "no value given");
                    continue;
                };
                match convert(&[v], *scalar) {
                    Ok(values) => bytes.extend(values.to_bytes()),
                    Err(msg) => self.at(line, &field, &msg),
                }
            }
            for fname in given.keys().filter(|k| !u.fields.iter().any(|(n, _)| n == *k)) {
                self.at(
                    line,
                    &format!("{at} › uniforms.{}.{fname}", u.name),
                    "not a field of this uniform",
                );
            }
            bytes.resize(bytes.len().div_ceil(16).max(1) * 16, 0);
            out.push(bytes);
        }
        out
    }
}

pub(super) fn check_shape(
    v: &mut Validator,
    err: &mut impl FnMut(&mut Validator, &str, &str),
    field: &str,
    shape: Option<[u32; 2]>,
    len: usize,
) {
    if let Some([r, c]) = shape {
        if r as usize * c as usize != len {
            err(
                v,
                &format!("{field}.shape"),
                &format!(
                    "{r} × {c} = {} but the buffer has {len} elements",
                    r as usize * c as usize
                ),
            );
        }
    }
}
