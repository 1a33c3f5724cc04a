//! The set check that written cases cover the edges of what a generator
//! draws. Random cases catch a wrong kernel only on the Runs whose draw hits
//! its bug, so a verdict would depend on the draw; the written cases, judged
//! on every Run, must therefore hold every edge the generator can draw:
//!
//! - each variable's smallest and largest value ([`EdgeKind::Lowest`],
//!   [`EdgeKind::Highest`]), from its range computed over the ranges of the
//!   variables before it (interval arithmetic, so a bound such as
//!   `min(n - 1, 64)` gives 64 when `n` can exceed 64);
//! - a value from 3 up that is not a power of two, for a variable the
//!   template uses other than as `pow2(v)`'s exponent
//!   ([`EdgeKind::NotPowerOfTwo`]): a workgroup size of 46, a length of 50;
//! - for every `ceil_div(a, b)` in the template, a case where `b` does not
//!   divide `a` ([`EdgeKind::NotMultiple`]): a length that is not a multiple
//!   of the workgroup size.
//!
//! A written case has no variables, only fields, so each variable's value is
//! read back from the fields the template computes: a field `"=w"` gives
//! `w` at once, and a field whose expression has one variable not yet known
//! (`"=pow2(p)"`, `"=4 * m4"`, `"=ceil_div(n, w) + extra"`) gives the one
//! value of that variable's range that computes the field's value. Buffer
//! lengths are read from the loaded case, so `arange = 16` counts as a
//! length of 16. Performance cases do not count: they are about speed.

use super::{is_power_of_two, Expr, Generator};
use std::collections::BTreeMap;
use std::fmt;

/// Which edge of a variable's draws no written case holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EdgeKind {
    /// The smallest value the generator draws.
    Lowest,
    /// The largest value the generator draws.
    Highest,
    /// A value from 3 up that is not a power of two, e.g. `example`.
    NotPowerOfTwo {
        /// A value of the range that would do.
        example: i64,
    },
    /// `ceil_div(var, divisor)` in the template, with `divisor` not dividing
    /// `var` (`var` is the first argument's text here).
    NotMultiple {
        /// The second argument's text, e.g. `w`.
        divisor: String,
    },
    /// No written case gives this variable's value: no field of the
    /// template computes it from values a written case has.
    Unreadable,
}

/// An edge of a generator's draws that no written case holds: the variable
/// (or, for [`EdgeKind::NotMultiple`], the dividend's text) and the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// The variable, e.g. `w`.
    pub var: String,
    /// Which edge.
    pub kind: EdgeKind,
    /// The variable's range over every draw, `(lowest, highest)`.
    pub range: (i64, i64),
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (lo, hi) = self.range;
        let add = "add a written `[[case]]` (hidden is fine) that has it, so that every Run tests it, not only the Runs whose random draw does";
        match &self.kind {
            EdgeKind::Lowest => write!(f, "no written case has `{}` = {lo}, the smallest value the generator draws (`{}` in {lo}..={hi}): {add}", self.var, self.var),
            EdgeKind::Highest => write!(f, "no written case has `{}` = {hi}, the largest value the generator draws (`{}` in {lo}..={hi}): {add}", self.var, self.var),
            EdgeKind::NotPowerOfTwo { example } => write!(
                f,
                "no written case has a `{}` that is not a power of two, which the generator draws (`{}` in {lo}..={hi}, e.g. {example}): {add}",
                self.var, self.var
            ),
            EdgeKind::NotMultiple { divisor } => write!(
                f,
                "no written case has a `{}` that is not a multiple of `{divisor}` (the template's `ceil_div({}, {divisor})`), which the generator draws: {add}",
                self.var, self.var
            ),
            EdgeKind::Unreadable => write!(
                f,
                "no written case gives `{}` a value: the set check reads a variable back from a template field it computes (alone, or with the other variables known), and no written case has such a field",
                self.var
            ),
        }
    }
}

/// A step of a path into a TOML value.
#[derive(Debug, Clone, PartialEq)]
enum Seg {
    Key(String),
    Index(usize),
}

/// One written case, as the check reads it.
#[derive(Debug, Clone)]
pub struct WrittenCase<'a> {
    /// The `[[case]]` table as written in `puzzle.toml`.
    pub table: &'a toml::Table,
    /// Element count of each buffer in the loaded case, by buffer name.
    pub buffer_len: BTreeMap<String, usize>,
}

/// Largest range a variable's value is searched in when read back from a
/// field that computes it (a larger range is read only from a field that
/// is the variable alone).
const SEARCH_LIMIT: i64 = 1 << 16;

impl Expr {
    /// The range of values this expression takes when each variable ranges
    /// over `ranges` (interval arithmetic; every operation is monotone in
    /// each argument over the ranges where it is defined, so the corners
    /// bound it). `None` where that does not hold (a divisor that can be 0
    /// or less, `seed`, an unknown variable, an overflow).
    fn range(&self, ranges: &BTreeMap<String, (i64, i64)>) -> Option<(i64, i64)> {
        let corners = |a: (i64, i64),
                       b: (i64, i64),
                       f: &dyn Fn(i64, i64) -> Option<i64>|
         -> Option<(i64, i64)> {
            let v = [f(a.0, b.0)?, f(a.0, b.1)?, f(a.1, b.0)?, f(a.1, b.1)?];
            Some((*v.iter().min()?, *v.iter().max()?))
        };
        match self {
            Expr::Num(n) => Some((*n, *n)),
            Expr::Var(v) => ranges.get(v).copied(),
            Expr::Neg(e) => {
                let (lo, hi) = e.range(ranges)?;
                Some((hi.checked_neg()?, lo.checked_neg()?))
            }
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.range(ranges)?, b.range(ranges)?);
                match op {
                    '+' => Some((a.0.checked_add(b.0)?, a.1.checked_add(b.1)?)),
                    '-' => Some((a.0.checked_sub(b.1)?, a.1.checked_sub(b.0)?)),
                    '*' => corners(a, b, &|x, y| x.checked_mul(y)),
                    '/' if b.0 > 0 => corners(a, b, &|x, y| Some(x.div_euclid(y))),
                    '%' if b.0 > 0 && a.0 >= 0 => Some((0, a.1.min(b.1 - 1))),
                    _ => None,
                }
            }
            Expr::Call(f, args) => {
                let a = args[0].range(ranges)?;
                match f.as_str() {
                    "pow2" if a.0 >= 0 && a.1 < 62 => Some((1 << a.0, 1 << a.1)),
                    "min" => args[1].range(ranges).map(|b| (a.0.min(b.0), a.1.min(b.1))),
                    "max" => args[1].range(ranges).map(|b| (a.0.max(b.0), a.1.max(b.1))),
                    "ceil_div" => args[1]
                        .range(ranges)
                        .filter(|b| b.0 > 0)
                        .and_then(|b| corners(a, b, &|x, y| Some((x + y - 1).div_euclid(y)))),
                    _ => None,
                }
            }
        }
    }

    /// The variables this expression reads, in order of first use.
    fn vars(&self, out: &mut Vec<String>) {
        match self {
            Expr::Num(_) => {}
            Expr::Var(v) => {
                if !out.contains(v) {
                    out.push(v.clone());
                }
            }
            Expr::Neg(e) => e.vars(out),
            Expr::Bin(_, a, b) => {
                a.vars(out);
                b.vars(out);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| a.vars(out)),
        }
    }

    /// Whether `var` is read anywhere other than as `pow2`'s exponent.
    fn reads_other_than_exponent(&self, var: &str) -> bool {
        match self {
            Expr::Num(_) => false,
            Expr::Var(v) => v == var,
            Expr::Neg(e) => e.reads_other_than_exponent(var),
            Expr::Bin(_, a, b) => {
                a.reads_other_than_exponent(var) || b.reads_other_than_exponent(var)
            }
            // Whatever `pow2`'s argument reads, it reads as an exponent.
            Expr::Call(f, _) if f == "pow2" => false,
            Expr::Call(_, args) => args.iter().any(|a| a.reads_other_than_exponent(var)),
        }
    }

    /// Every `ceil_div(a, b)` within this expression.
    fn ceil_divs<'e>(&'e self, out: &mut Vec<(&'e Expr, &'e Expr)>) {
        match self {
            Expr::Num(_) | Expr::Var(_) => {}
            Expr::Neg(e) => e.ceil_divs(out),
            Expr::Bin(_, a, b) => {
                a.ceil_divs(out);
                b.ceil_divs(out);
            }
            Expr::Call(f, args) => {
                if f == "ceil_div" {
                    out.push((&args[0], &args[1]));
                }
                args.iter().for_each(|a| a.ceil_divs(out));
            }
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Num(n) => write!(f, "{n}"),
            Expr::Var(v) => f.write_str(v),
            Expr::Neg(e) => write!(f, "-{e}"),
            Expr::Bin(op, a, b) => {
                let paren = |e: &Expr| matches!(e, Expr::Bin(..));
                let side = |e: &Expr| if paren(e) { format!("({e})") } else { e.to_string() };
                write!(f, "{} {op} {}", side(a), side(b))
            }
            Expr::Call(name, args) => write!(
                f,
                "{name}({})",
                args.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

/// Every `"=expression"` leaf of a template with its path.
fn leaves(value: &toml::Value, path: &mut Vec<Seg>, out: &mut Vec<(Vec<Seg>, Expr)>) {
    match value {
        toml::Value::String(s) => {
            if let Some(e) = s.strip_prefix('=').and_then(|t| super::parse(t).ok()) {
                out.push((path.clone(), e));
            }
        }
        toml::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(Seg::Index(i));
                leaves(x, path, out);
                path.pop();
            }
        }
        toml::Value::Table(t) => {
            for (k, x) in t {
                path.push(Seg::Key(k.clone()));
                leaves(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The integer a written case has at `path`: a buffer's length from the
/// loaded case for `buffers.<name>.….len`, otherwise the field as written.
fn field(case: &WrittenCase, path: &[Seg]) -> Option<i64> {
    if let ([Seg::Key(top), Seg::Key(buffer), ..], Some(Seg::Key(last))) = (path, path.last()) {
        if top == "buffers" && last == "len" {
            return case.buffer_len.get(buffer).and_then(|&n| i64::try_from(n).ok());
        }
    }
    let mut at = path.first().and_then(|s| match s {
        Seg::Key(k) => case.table.get(k),
        Seg::Index(_) => None,
    })?;
    for s in &path[1..] {
        at = match (s, at) {
            (Seg::Key(k), toml::Value::Table(t)) => t.get(k)?,
            (Seg::Index(i), toml::Value::Array(a)) => a.get(*i)?,
            _ => return None,
        };
    }
    match at {
        toml::Value::Integer(i) => Some(*i),
        toml::Value::Float(x) if x.fract() == 0.0 && x.abs() < 9e15 => Some(*x as i64),
        _ => None,
    }
}

/// The variables' values in one written case, as far as they can be read
/// back (module doc).
fn read_back(
    leaves: &[(Vec<Seg>, Expr)],
    ranges: &BTreeMap<String, (i64, i64)>,
    case: &WrittenCase,
) -> BTreeMap<String, i64> {
    let mut known: BTreeMap<String, i64> = BTreeMap::new();
    let fields: Vec<(Option<i64>, &Expr, Vec<String>)> = leaves
        .iter()
        .map(|(path, e)| {
            let mut vars = Vec::new();
            e.vars(&mut vars);
            (field(case, path), e, vars)
        })
        .filter(|(value, _, vars)| value.is_some() && !vars.iter().any(|v| v == "seed"))
        .collect();
    loop {
        let mut progress = false;
        for (value, e, vars) in &fields {
            let value = value.expect("kept only fields with a value");
            let unknown: Vec<&String> = vars.iter().filter(|v| !known.contains_key(*v)).collect();
            let [var] = unknown[..] else { continue };
            if let Expr::Var(_) = e {
                known.insert(var.clone(), value);
                progress = true;
                continue;
            }
            let Some(&(lo, hi)) = ranges.get(var) else { continue };
            if hi - lo > SEARCH_LIMIT {
                continue;
            }
            let mut env = known.clone();
            let mut found = None;
            for x in lo..=hi {
                env.insert(var.clone(), x);
                if e.eval(&env).ok() == Some(value) {
                    if found.is_some() {
                        found = None;
                        break;
                    }
                    found = Some(x);
                }
            }
            if let Some(x) = found {
                known.insert(var.clone(), x);
                progress = true;
            }
        }
        if !progress {
            return known;
        }
    }
}

/// The edges of `generator`'s draws that none of the `written` cases holds
/// (module doc), in the order of the generator's variables. Empty when the
/// written cases cover every edge.
pub fn uncovered_edges(generator: &Generator, written: &[WrittenCase]) -> Vec<Edge> {
    let mut ranges: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    for v in &generator.vars {
        if let (Some(lo), Some(hi)) = (v.lo.range(&ranges), v.hi.range(&ranges)) {
            if lo.0 <= hi.1 {
                ranges.insert(v.name.clone(), (lo.0, hi.1));
            }
        }
    }
    let mut all = Vec::new();
    leaves(&toml::Value::Table(generator.template.clone()), &mut Vec::new(), &mut all);
    let values: Vec<BTreeMap<String, i64>> =
        written.iter().map(|c| read_back(&all, &ranges, c)).collect();
    let mut edges = Vec::new();
    for v in &generator.vars {
        let Some(&(lo, hi)) = ranges.get(&v.name) else { continue };
        let range = (lo, hi);
        let seen: Vec<i64> = values.iter().filter_map(|m| m.get(&v.name).copied()).collect();
        let used = all.iter().any(|(_, e)| {
            let mut vars = Vec::new();
            e.vars(&mut vars);
            vars.contains(&v.name)
        });
        if !used {
            continue;
        }
        if seen.is_empty() {
            edges.push(Edge { var: v.name.clone(), kind: EdgeKind::Unreadable, range });
            continue;
        }
        if !seen.contains(&lo) {
            edges.push(Edge { var: v.name.clone(), kind: EdgeKind::Lowest, range });
        }
        if hi != lo && !seen.contains(&hi) {
            edges.push(Edge { var: v.name.clone(), kind: EdgeKind::Highest, range });
        }
        let from = lo.max(3);
        let has_odd = from < hi || (from == hi && !is_power_of_two(hi));
        let odd = |x: i64| x >= 3 && !is_power_of_two(x);
        if has_odd
            && all.iter().any(|(_, e)| e.reads_other_than_exponent(&v.name))
            && !seen.iter().any(|&x| odd(x))
        {
            let example = if odd(hi) { hi } else { hi - 1 };
            edges.push(Edge {
                var: v.name.clone(),
                kind: EdgeKind::NotPowerOfTwo { example },
                range,
            });
        }
    }
    let mut divs = Vec::new();
    for (_, e) in &all {
        e.ceil_divs(&mut divs);
    }
    let mut done: Vec<String> = Vec::new();
    for (a, b) in divs {
        let key = format!("{a} / {b}");
        if done.contains(&key) {
            continue;
        }
        done.push(key);
        // Only where the generator can draw a remainder.
        let (Some(ar), Some(br)) = (a.range(&ranges), b.range(&ranges)) else { continue };
        if br.1 <= 1 || ar.1 < 2 {
            continue;
        }
        let covered = values
            .iter()
            .any(|env| matches!((a.eval(env), b.eval(env)), (Ok(x), Ok(y)) if y > 0 && x % y != 0));
        if !covered {
            edges.push(Edge {
                var: a.to_string(),
                kind: EdgeKind::NotMultiple { divisor: b.to_string() },
                range: ar,
            });
        }
    }
    edges
}

#[cfg(test)]
mod tests;
