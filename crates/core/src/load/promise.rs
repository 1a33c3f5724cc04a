//! What a statement promises, as data: each `[[promise]]` is parsed against
//! the puzzle's bindings, measured on every case (written, hidden, timed,
//! and a few hundred random draws), and rendered into the statement in
//! place of its `{{sizes}}` and `{{performance_sizes}}` lines.
//!
//! A promise is a range `[lo, hi]` of one quantity. Every case must fall
//! inside it (a student writes to it), and the written cases must reach
//! both ends (a promised edge that no case tests is not a promise the judge
//! keeps). Performance cases may go beyond it only where the promise gives
//! their own `performance` range, which the statement then shows.

use super::problems::Validator;
use crate::format::{BufferInit, CaseSpec, PromiseSpec, Role};
use crate::generate::checked_len;
use crate::model::{Buffer, DispatchPlan, Uniform};
use crate::random::Generator;

/// The line of a statement replaced by the list of its promises.
pub const SIZES_LINE: &str = "{{sizes}}";
/// The line of a statement replaced by the list of the promises whose
/// performance cases go beyond them.
pub const PERFORMANCE_SIZES_LINE: &str = "{{performance_sizes}}";

/// Random draws each promise is held to when a set is checked: seeds 0 to
/// `DRAWN_SEEDS - 1`, every random case of each. A draw costs a few
/// microseconds (no values are made), and the draws seek the generator's
/// edges, so 100 seeds reach every bound of the shipped generators.
const DRAWN_SEEDS: u64 = 100;

/// What a promise measures.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Quantity {
    /// Invocations per workgroup: the product of `workgroup_size`.
    Invocations,
    /// One dimension (0, 1, 2) of `workgroup_size`.
    WorkgroupSize(usize),
    /// Workgroups dispatched: the product of `workgroups`.
    Workgroups,
    /// One dimension of `workgroups`.
    WorkgroupsDim(usize),
    /// Workgroup memory in elements, `{{smemSize}}`: the product of
    /// `workgroup_memory`.
    WorkgroupMemory,
    /// A uniform field, by uniform and field name.
    Field(String, String),
    /// A storage buffer's element count, by index into the buffers.
    Len(usize),
    /// The first (0) or second (1) entry of a buffer's `shape`.
    Shape(usize, usize),
    /// The initial values of an input buffer.
    Values(usize),
}

/// A `[[promise]]` checked against the puzzle's bindings.
#[derive(Debug, Clone)]
pub(super) struct Promise {
    spec: PromiseSpec,
    quantity: Quantity,
}

impl Promise {
    /// The range a case must fall in: `performance` for a performance case
    /// where the promise gives one.
    fn range_for(&self, performance: bool) -> [f64; 2] {
        match self.spec.performance {
            Some(r) if performance => r,
            _ => self.spec.range,
        }
    }
}

const DIMS: [&str; 3] = ["x", "y", "z"];

/// Parses every promise of a manifest, reporting those that name nothing
/// the puzzle has, and the quantities every puzzle must promise (its
/// workgroup size and every uniform field its cases set).
pub(super) fn parse(
    specs: &[PromiseSpec],
    lines: &[usize],
    buffers: &[Buffer],
    uniforms: &[Uniform],
    plan: &[DispatchPlan],
    v: &mut Validator,
) -> Vec<Promise> {
    let mut out = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let line = lines.get(i).copied();
        let field = format!("promise `{}`", spec.of);
        let [lo, hi] = spec.range;
        if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
            v.at(
                line,
                &field,
                "`range` is `[lowest, highest]`: two numbers, the first not above the second",
            );
            continue;
        }
        if let Some([plo, phi]) = spec.performance {
            if !(plo.is_finite() && phi.is_finite() && plo <= phi) {
                v.at(line, &field, "`performance` is `[lowest, highest]`: two numbers, the first not above the second");
                continue;
            }
        }
        if spec.what.trim().is_empty() {
            v.at(
                line,
                &field,
                "`what` is empty: say what the quantity is, in the statement's words",
            );
        }
        match quantity(&spec.of, buffers, uniforms, plan) {
            Ok(quantity) => {
                if out.iter().any(|p: &Promise| p.quantity == quantity) {
                    v.at(line, &field, "is promised twice: give one range per quantity");
                }
                out.push(Promise { spec: spec.clone(), quantity });
            }
            Err(msg) => v.at(line, &field, &msg),
        }
    }
    let promised = |q: &Quantity| out.iter().any(|p| &p.quantity == q);
    if !specs.is_empty() || !out.is_empty() {
        if !promised(&Quantity::Invocations)
            && !(0..3).any(|d| promised(&Quantity::WorkgroupSize(d)))
        {
            v.at(None, "promise", "no promise of the workgroup size: add one `of = \"invocations\"` (or `\"workgroup_size.x\"`), the range a kernel's workgroup arrays must hold");
        }
        let per_dispatch: Vec<usize> =
            super::dispatch::per_dispatch(plan).map(|k| k as usize).collect();
        for (_, u) in uniforms.iter().enumerate().filter(|(k, _)| !per_dispatch.contains(k)) {
            for (name, _) in &u.fields {
                if !promised(&Quantity::Field(u.name.clone(), name.clone())) {
                    v.at(None, "promise", &format!("`{}.{name}` has no promise: every uniform field a case sets needs its range stated", u.name));
                }
            }
        }
    } else {
        v.at(None, "promise", "no `[[promise]]`: state, as data, the ranges every case falls in (sizes, the workgroup size, every uniform field); the statement's `{{sizes}}` line shows them");
    }
    out
}

fn quantity(
    of: &str,
    buffers: &[Buffer],
    uniforms: &[Uniform],
    plan: &[DispatchPlan],
) -> Result<Quantity, String> {
    let buffer = |name: &str| {
        buffers.iter().position(|b| b.name == name).ok_or_else(|| {
            let names: Vec<&str> = buffers.iter().map(|b| b.name.as_str()).collect();
            format!("`{name}` is not a storage buffer of this puzzle; it has {}", names.join(", "))
        })
    };
    let call = |f: &str| {
        of.strip_prefix(f).and_then(|r| r.strip_prefix('(')).and_then(|r| r.strip_suffix(')'))
    };
    if of == "invocations" {
        return Ok(Quantity::Invocations);
    }
    if of == "workgroups" {
        return Ok(Quantity::Workgroups);
    }
    if of == "workgroup_memory" {
        return Ok(Quantity::WorkgroupMemory);
    }
    for (prefix, make) in [
        ("workgroup_size.", Quantity::WorkgroupSize as fn(usize) -> Quantity),
        ("workgroups.", Quantity::WorkgroupsDim),
    ] {
        if let Some(d) = of.strip_prefix(prefix) {
            return DIMS
                .iter()
                .position(|x| *x == d)
                .map(make)
                .ok_or_else(|| format!("`{d}` is not a dimension: use x, y or z"));
        }
    }
    if let Some(name) = call("len") {
        return buffer(name).map(Quantity::Len);
    }
    for (f, d) in [("rows", 0), ("cols", 1)] {
        if let Some(name) = call(f) {
            return buffer(name).map(|b| Quantity::Shape(b, d));
        }
    }
    if let Some((u, f)) = of.split_once('.') {
        let Some(k) = uniforms.iter().position(|x| x.name == u) else {
            return Err(format!("`{u}` is not a uniform of this puzzle"));
        };
        if super::dispatch::per_dispatch(plan).any(|p| p as usize == k) {
            return Err(format!("`{u}` is set per dispatch by `[[dispatch]]`, not by the cases"));
        }
        if !uniforms[k].fields.iter().any(|(n, _)| n == f) {
            return Err(format!("`{f}` is not a field of the uniform `{u}`"));
        }
        return Ok(Quantity::Field(u.to_string(), f.to_string()));
    }
    let b = buffer(of).map_err(|e| {
        format!("{e}; other quantities: invocations, workgroup_size.x, workgroups, workgroups.x, workgroup_memory, <uniform>.<field>, len(<buffer>), rows(<buffer>), cols(<buffer>)")
    })?;
    if buffers[b].role == Role::Output {
        return Err(format!("`{of}` is an output: promise the values of inputs only"));
    }
    Ok(Quantity::Values(b))
}

/// The least and greatest value `q` takes in a case, read from its spec
/// (no values are made: random contents give their drawing range);
/// `None` when the case does not set it (an output's length that only
/// the reference knows, a buffer without a `shape`).
fn measure(q: &Quantity, case: &CaseSpec, buffers: &[Buffer]) -> Option<[f64; 2]> {
    let one = |x: f64| Some([x, x]);
    let product = |d: [u32; 3]| d.iter().map(|&n| f64::from(n)).product::<f64>();
    let init = |b: usize| case.buffers.get(&buffers[b].name).cloned().unwrap_or_default();
    match q {
        Quantity::Invocations => one(product(case.workgroup_size)),
        Quantity::WorkgroupSize(d) => one(f64::from(case.workgroup_size[*d])),
        Quantity::Workgroups => one(product(case.workgroups)),
        Quantity::WorkgroupsDim(d) => one(f64::from(case.workgroups[*d])),
        Quantity::WorkgroupMemory => case.workgroup_memory.and_then(|m| one(product(m))),
        Quantity::Field(u, f) => case.uniforms.get(u).and_then(|m| m.get(f)).copied().and_then(one),
        Quantity::Len(b) => {
            let init = init(*b);
            let len = match buffers[*b].role {
                Role::Output => init
                    .len
                    .map(|n| n as usize)
                    .or(init.shape.map(|[r, c]| r as usize * c as usize))
                    .or(init.expected.as_ref().map(Vec::len)),
                _ => checked_len(&init, buffers[*b].element).ok(),
            };
            len.and_then(|n| one(n as f64))
        }
        Quantity::Shape(b, d) => init(*b).shape.and_then(|s| one(f64::from(s[*d]))),
        Quantity::Values(b) => value_range(&init(*b)),
    }
}

/// The range of an input's initial values, from how they are made.
fn value_range(init: &BufferInit) -> Option<[f64; 2]> {
    if let Some(v) = &init.values {
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        return (lo <= hi).then_some([lo, hi]);
    }
    if let Some(n) = init.arange {
        let start = init.start.unwrap_or(0.0);
        return (n > 0).then(|| [start, start + f64::from(n - 1)]);
    }
    if let Some(v) = init.fill {
        return Some([v, v]);
    }
    if let Some(r) = init.random {
        return Some([r.min as f64, r.max as f64]);
    }
    init.offsets.map(|o| [0.0, f64::from(o.total)])
}

/// Holds every case to the promises: each written case (its line in the
/// manifest in `case_lines`) inside its range unless the promise names it
/// in `except`, both ends reached by the written ordinary cases (and by the
/// performance cases where a promise gives them a range of their own), and
/// every random case of seeds 0 to 99 inside.
pub(super) fn check(
    promises: &[Promise],
    promise_lines: &[usize],
    cases: &[CaseSpec],
    case_lines: &[usize],
    generator: Option<&Generator>,
    buffers: &[Buffer],
    v: &mut Validator,
) {
    let name = |i: usize, c: &CaseSpec| c.name.clone().unwrap_or_else(|| format!("Case {}", i + 1));
    for (k, p) in promises.iter().enumerate() {
        let pline = promise_lines.get(k).copied();
        let field = format!("promise `{}`", p.spec.of);
        for e in &p.spec.except {
            if !cases.iter().enumerate().any(|(i, c)| &name(i, c) == e) {
                v.at(
                    pline,
                    &field,
                    &format!("`except` names “{e}”, which is not the name of a written case"),
                );
            }
        }
        // [least, greatest] over the ordinary and the performance cases.
        let mut reached = [[f64::INFINITY, f64::NEG_INFINITY]; 2];
        for (i, c) in cases.iter().enumerate() {
            if p.spec.except.contains(&name(i, c)) {
                continue;
            }
            let Some([lo, hi]) = measure(&p.quantity, c, buffers) else { continue };
            let timed = c.performance.is_some();
            let [plo, phi] = p.range_for(timed);
            if lo < plo || hi > phi {
                let seen =
                    if lo == hi { number(lo) } else { format!("{} to {}", number(lo), number(hi)) };
                let what = if timed && p.spec.performance.is_some() {
                    "the performance cases' range"
                } else {
                    "the promise"
                };
                let advice = if timed && p.spec.performance.is_none() {
                    "give the promise a `performance` range, which the statement's `{{performance_sizes}}` shows, or change the case"
                } else {
                    "widen the promise (the statement shows it) or change the case"
                };
                v.at(
                    case_lines.get(i).copied(),
                    &format!("case {} › {}", i + 1, p.spec.of),
                    &format!(
                        "is {seen}, outside {what} “{}: {}”: {advice}",
                        p.spec.what.trim(),
                        span(plo, phi)
                    ),
                );
            }
            let r = &mut reached[usize::from(timed && p.spec.performance.is_some())];
            r[0] = r[0].min(lo);
            r[1] = r[1].max(hi);
        }
        let mut ends = vec![("written case", p.spec.range, reached[0])];
        if let Some(r) = p.spec.performance {
            ends.push(("performance case", r, reached[1]));
        }
        for (what, [lo, hi], [least, greatest]) in ends {
            if least > greatest {
                v.at(pline, &field, &format!("no {what} sets it: promise what the cases show"));
                continue;
            }
            for (end, edge, got, short) in
                [("lowest", lo, least, least > lo), ("highest", hi, greatest, greatest < hi)]
            {
                if short {
                    v.at(
                        pline,
                        &field,
                        &format!(
                            "no {what} reaches the {end} end, {} (the {end} is {}): a promised edge no case tests lets a kernel that fails there pass; add a case or narrow the range",
                            number(edge),
                            number(got)
                        ),
                    );
                }
            }
        }
        let Some(generator) = generator else { continue };
        'seeds: for seed in 0..DRAWN_SEEDS {
            for k in 0..generator.count {
                let Ok(spec) = generator.draw_for_run(seed, k) else { continue };
                let Some([lo, hi]) = measure(&p.quantity, &spec, buffers) else { continue };
                let [plo, phi] = p.spec.range;
                if lo < plo || hi > phi {
                    v.at(
                        pline,
                        &field,
                        &format!(
                            "random case {} of seed {seed} has {}, outside “{}: {}”: narrow the generator's `vars` or widen the promise",
                            k + 1,
                            if lo == hi { number(lo) } else { format!("{} to {}", number(lo), number(hi)) },
                            p.spec.what.trim(),
                            span(plo, phi)
                        ),
                    );
                    break 'seeds;
                }
            }
        }
    }
}

/// Problems with the statement's placeholders: `{{sizes}}` exactly once
/// when the puzzle promises anything, `{{performance_sizes}}` exactly
/// once when a promise has a `performance` range, and neither otherwise.
pub(super) fn placeholder_problems(statement: &str, promises: &[Promise]) -> Vec<String> {
    let count = |line: &str| statement.lines().filter(|l| l.trim() == line).count();
    let beyond = promises.iter().any(|p| p.spec.performance.is_some());
    let mut out = Vec::new();
    for (line, wanted, why) in [
        (SIZES_LINE, !promises.is_empty(), "the list of the `[[promise]]` ranges, under `## Sizes`"),
        (PERFORMANCE_SIZES_LINE, beyond, "the list of the promises whose performance cases go beyond them (a `performance` range), in the section on performance"),
    ] {
        match (count(line), wanted) {
            (1, true) | (0, false) => {}
            (0, true) => out.push(format!("has no `{line}` line: it shows {why}")),
            (_, true) => out.push(format!("has `{line}` more than once: it shows {why}, once")),
            (_, false) => out.push(format!("has a `{line}` line but nothing to show there: it shows {why}")),
        }
    }
    out
}

/// `statement` with its `{{sizes}}` line replaced by a Markdown list of
/// the promises, and `{{performance_sizes}}` by the list of those with a
/// `performance` range (their performance cases' range).
pub(super) fn render(statement: &str, promises: &[Promise]) -> String {
    let item = |p: &Promise, [lo, hi]: [f64; 2], except: bool| {
        let mut s = format!("- {} (`{}`): {}", p.spec.what.trim(), p.spec.of, span(lo, hi));
        if let Some(note) = p.spec.note.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
            s.push_str(", ");
            s.push_str(note);
        }
        if except && !p.spec.except.is_empty() {
            let names: Vec<String> = p.spec.except.iter().map(|n| format!("“{n}”")).collect();
            s.push_str(&format!(" (not in {})", names.join(" and ")));
        }
        s.push('.');
        s
    };
    let sizes: Vec<String> = promises.iter().map(|p| item(p, p.spec.range, true)).collect();
    let beyond: Vec<String> = promises
        .iter()
        .filter_map(|p| {
            p.spec.performance.map(|r| {
                format!("- {} (`{}`): {}.", p.spec.what.trim(), p.spec.of, span(r[0], r[1]))
            })
        })
        .collect();
    let mut out = String::with_capacity(statement.len() + 64 * sizes.len());
    for line in statement.split_inclusive('\n') {
        let list = match line.trim() {
            SIZES_LINE => &sizes,
            PERFORMANCE_SIZES_LINE => &beyond,
            _ => {
                out.push_str(line);
                continue;
            }
        };
        out.push_str(&list.join("\n"));
        out.push('\n');
    }
    out
}

/// `from 1 to 200`, or `always 4` for a range of one value.
fn span(lo: f64, hi: f64) -> String {
    if lo == hi {
        format!("always {}", number(lo))
    } else {
        format!("from {} to {}", number(lo), number(hi))
    }
}

/// A number as the statements write one: integers with thousands
/// separators (`262,144`), a true minus sign (`−1`), fractions as the
/// shortest decimal that reads back the same (`0.03125`).
pub(crate) fn number(x: f64) -> String {
    let sign = if x < 0.0 { "−" } else { "" };
    let a = x.abs();
    if a.fract() == 0.0 && a < 1e15 {
        let digits = format!("{a:.0}");
        let mut grouped = String::new();
        for (i, ch) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(ch);
        }
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{a}")
    }
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn numbers_read_as_the_statements_write_them() {
        assert_eq!(number(262_144.0), "262,144");
        assert_eq!(number(200.0), "200");
        assert_eq!(number(-1.0), "−1");
        assert_eq!(number(0.03125), "0.03125");
        assert_eq!(number(4_294_967_295.0), "4,294,967,295");
        assert_eq!(number(-2000.5), "−2000.5");
    }
}
