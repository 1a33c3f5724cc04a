//! Random cases, drawn fresh on every Run, as property-based testing does:
//! a puzzle's `[generator]` names integer variables with ranges (sizes,
//! shapes, workgroup sizes within what the statement promises) and a case
//! template whose `"=expression"` strings are computed from them. The
//! template is an ordinary `[[case]]` once computed, so the loader checks it
//! exactly as it checks written cases (see [`crate::load::random_cases`]).
//!
//! Expressions are integer arithmetic: literals, variables, `+ - * / %`
//! (division rounds down), parentheses, `min(a, b)`, `max(a, b)`,
//! `ceil_div(a, b)` and `pow2(a)`. The variable `seed` is the case's own seed,
//! for the buffers' `random.seed`.
//!
//! Draws seek the edges, as proptest's and Hypothesis's strategies do: each
//! variable lands on a bound or next to one, or on a value that is not a
//! power of two, in half of its draws ([`Generator::draw`]), and the first
//! random case of a Run has workgroup sizes that are not powers of two
//! wherever the ranges allow it ([`Generator::draw_for_run`]). Neither
//! crate fits here as a library: both draw from their own strategy objects,
//! while these variables are parsed from a puzzle's TOML, must draw the same
//! case from a seed on every platform (the wasm page and the native tool),
//! and their edges also drive the set check of written cases ([`edges`]).

mod edges;

pub use edges::{uncovered_edges, Edge, EdgeKind, WrittenCase};

use crate::format::{CaseSpec, GeneratorSpec};
use crate::generate::SplitMix64;
use std::collections::BTreeMap;
use std::fmt;

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    Num(i64),
    Var(String),
    Neg(Box<Expr>),
    Bin(char, Box<Expr>, Box<Expr>),
    Call(String, Vec<Expr>),
}

/// A variable drawn uniformly from `lo..=hi`, both expressions over earlier
/// variables.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Var {
    pub(crate) name: String,
    pub(crate) lo: Expr,
    pub(crate) hi: Expr,
}

/// What is wrong with a generator, or with one of its draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GeneratorError {
    /// A variable's definition does not parse: `name in low..=high`.
    Variable {
        /// The definition as written.
        text: String,
        /// What is wrong.
        message: String,
    },
    /// A template expression does not parse.
    Expression {
        /// The expression as written, after its `=`.
        text: String,
        /// What is wrong.
        message: String,
    },
    /// A variable's range is empty for the values drawn before it.
    EmptyRange {
        /// The variable.
        var: String,
        /// Its computed lower bound.
        lo: i64,
        /// Its computed upper bound, below `lo`.
        hi: i64,
    },
    /// An expression cannot be computed with the values drawn (an
    /// overflow, a division by zero, a variable used before it is drawn).
    Compute {
        /// The expression (or the variable whose bound it is).
        text: String,
        /// What went wrong.
        message: String,
    },
    /// The computed template is not a valid `[[case]]`.
    NotACase {
        /// The variables drawn, e.g. `w = 5, n = 12`.
        vars: String,
        /// What the `[[case]]` reader said.
        message: String,
    },
}

impl fmt::Display for GeneratorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GeneratorError::Variable { message, .. }
            | GeneratorError::Expression { message, .. } => f.write_str(message),
            GeneratorError::EmptyRange { var, lo, hi } => {
                write!(f, "`{var}` has an empty range {lo}..={hi}")
            }
            GeneratorError::Compute { text, message } => write!(f, "`{text}`: {message}"),
            GeneratorError::NotACase { vars, message } => {
                write!(f, "with {vars}: the case is not valid: {message}")
            }
        }
    }
}

impl std::error::Error for GeneratorError {}

/// A puzzle's generator of random cases, parsed.
#[derive(Debug, Clone)]
pub struct Generator {
    /// Random cases judged per Run.
    pub count: usize,
    pub(crate) vars: Vec<Var>,
    pub(crate) template: toml::Table,
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn sum(&mut self) -> Result<Expr, String> {
        let mut e = self.product()?;
        loop {
            if self.eat(b'+') {
                e = Expr::Bin('+', Box::new(e), Box::new(self.product()?));
            } else if self.eat(b'-') {
                e = Expr::Bin('-', Box::new(e), Box::new(self.product()?));
            } else {
                return Ok(e);
            }
        }
    }

    fn product(&mut self) -> Result<Expr, String> {
        let mut e = self.atom()?;
        loop {
            let op = [b'*', b'/', b'%'].into_iter().find(|&c| self.eat(c));
            match op {
                Some(c) => e = Expr::Bin(c as char, Box::new(e), Box::new(self.atom()?)),
                None => return Ok(e),
            }
        }
    }

    fn atom(&mut self) -> Result<Expr, String> {
        self.ws();
        if self.eat(b'(') {
            let e = self.sum()?;
            return if self.eat(b')') { Ok(e) } else { Err("a `(` without its `)`".into()) };
        }
        if self.eat(b'-') {
            return Ok(Expr::Neg(Box::new(self.atom()?)));
        }
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_')
        {
            self.i += 1;
        }
        let word = std::str::from_utf8(&self.s[start..self.i]).unwrap_or_default();
        if word.is_empty() {
            return Err(format!("expected a number, a variable or `(` at position {}", start + 1));
        }
        if let Ok(n) = word.parse::<i64>() {
            return Ok(Expr::Num(n));
        }
        if word.as_bytes()[0].is_ascii_digit() {
            return Err(format!("`{word}` is not a number"));
        }
        if self.eat(b'(') {
            let mut args = vec![self.sum()?];
            while self.eat(b',') {
                args.push(self.sum()?);
            }
            if !self.eat(b')') {
                return Err(format!("`{word}(` without its `)`"));
            }
            let arity = match word {
                "min" | "max" | "ceil_div" => 2,
                "pow2" => 1,
                _ => {
                    return Err(format!(
                        "`{word}` is not a function; use min, max, ceil_div or pow2"
                    ))
                }
            };
            if args.len() != arity {
                return Err(format!("`{word}` takes {arity} argument(s)"));
            }
            return Ok(Expr::Call(word.to_string(), args));
        }
        Ok(Expr::Var(word.to_string()))
    }
}

pub(crate) fn parse(s: &str) -> Result<Expr, String> {
    let mut p = Parser { s: s.as_bytes(), i: 0 };
    let e = p.sum()?;
    p.ws();
    if p.i != s.len() {
        return Err(format!("unexpected `{}` in `{s}`", &s[p.i..]));
    }
    Ok(e)
}

impl Expr {
    pub(crate) fn eval(&self, env: &BTreeMap<String, i64>) -> Result<i64, String> {
        let over = || "the value overflows".to_string();
        Ok(match self {
            Expr::Num(n) => *n,
            Expr::Var(v) => *env
                .get(v)
                .ok_or_else(|| format!("`{v}` is not a variable defined before this point"))?,
            Expr::Neg(e) => e.eval(env)?.checked_neg().ok_or_else(over)?,
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval(env)?, b.eval(env)?);
                match op {
                    '+' => a.checked_add(b).ok_or_else(over)?,
                    '-' => a.checked_sub(b).ok_or_else(over)?,
                    '*' => a.checked_mul(b).ok_or_else(over)?,
                    _ if b == 0 => return Err("division by zero".into()),
                    '/' => a.div_euclid(b),
                    _ => a.rem_euclid(b),
                }
            }
            Expr::Call(f, args) => {
                let v: Vec<i64> = args.iter().map(|a| a.eval(env)).collect::<Result<_, _>>()?;
                match f.as_str() {
                    "min" => v[0].min(v[1]),
                    "max" => v[0].max(v[1]),
                    "ceil_div" if v[1] > 0 => (v[0] + v[1] - 1).div_euclid(v[1]),
                    "ceil_div" => return Err("ceil_div by zero or less".into()),
                    _ if (0..62).contains(&v[0]) => 1i64 << v[0],
                    _ => return Err(format!("pow2({}) is out of range", v[0])),
                }
            }
        })
    }
}

fn parse_var(s: &str) -> Result<Var, String> {
    let (name, range) =
        s.split_once(" in ").ok_or_else(|| format!("`{s}`: write `name in low..=high`"))?;
    let (lo, hi) =
        range.split_once("..=").ok_or_else(|| format!("`{s}`: the range is `low..=high`"))?;
    let name = name.trim();
    if name.is_empty()
        || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        || name.as_bytes()[0].is_ascii_digit()
        || name == "seed"
    {
        return Err(format!("`{name}` is not a usable variable name"));
    }
    Ok(Var { name: name.to_string(), lo: parse(lo.trim())?, hi: parse(hi.trim())? })
}

/// The seed of random case `k` of a Run with seed `run_seed`.
pub fn case_seed(run_seed: u64, k: usize) -> u64 {
    SplitMix64::new(run_seed ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64() >> 11
}

impl Generator {
    /// Parses a `[generator]`.
    ///
    /// # Errors
    /// [`GeneratorError::Variable`] or [`GeneratorError::Expression`], naming
    /// what is wrong.
    pub fn new(spec: &GeneratorSpec) -> Result<Generator, GeneratorError> {
        let vars = spec
            .vars
            .iter()
            .map(|s| {
                parse_var(s)
                    .map_err(|message| GeneratorError::Variable { text: s.clone(), message })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let g = Generator {
            count: spec.count.unwrap_or(3) as usize,
            vars,
            template: spec.case.clone(),
        };
        // Every expression in the template must parse.
        fn walk(v: &toml::Value) -> Result<(), GeneratorError> {
            match v {
                toml::Value::String(s) if s.starts_with('=') => {
                    parse(&s[1..]).map(|_| ()).map_err(|message| GeneratorError::Expression {
                        text: s[1..].to_string(),
                        message,
                    })
                }
                toml::Value::Array(a) => a.iter().try_for_each(walk),
                toml::Value::Table(t) => t.values().try_for_each(walk),
                _ => Ok(()),
            }
        }
        g.template.values().try_for_each(walk)?;
        Ok(g)
    }

    /// Draws the case of seed `seed`: the variables, then the template.
    ///
    /// Each variable is drawn from its range `lo..=hi` (computed from the
    /// variables before it) with a bias towards the values wrong kernels
    /// get wrong: 2 draws in 16 take `lo`, 2 take `hi`, 1 takes `lo + 1`,
    /// 1 takes `hi - 1`, 2 take a value that is not a power of two (where
    /// the range has one from 3 up), and the other 8 are uniform.
    ///
    /// # Errors
    /// [`GeneratorError::EmptyRange`], [`GeneratorError::Compute`] for an
    /// expression that cannot be computed, or [`GeneratorError::NotACase`]
    /// for a template that is not a `[[case]]` once computed.
    pub fn draw(&self, seed: u64) -> Result<CaseSpec, GeneratorError> {
        let (table, vars) = self.draw_table(seed)?;
        table
            .try_into::<CaseSpec>()
            .map_err(|e| GeneratorError::NotACase { vars, message: e.message().to_string() })
    }

    /// Draws random case `k` of the Run with seed `run_seed`. Case 0 is the
    /// first of up to [`NON_POW2_TRIES`] draws that gives every workgroup
    /// size dimension the template computes (not a literal) a value that is
    /// not a power of two, or failing that the draw with the most such
    /// dimensions, so that every Run tests such a size wherever the ranges
    /// allow one. The others are plain [`Generator::draw`]s. The same
    /// `run_seed` and `k` draw the same case on every platform.
    ///
    /// # Errors
    /// As [`Generator::draw`].
    pub fn draw_for_run(&self, run_seed: u64, k: usize) -> Result<CaseSpec, GeneratorError> {
        let seed = case_seed(run_seed, k);
        let varying: Vec<usize> = match self.template.get("workgroup_size") {
            Some(toml::Value::Array(dims)) => {
                (0..dims.len()).filter(|&d| matches!(dims[d], toml::Value::String(_))).collect()
            }
            _ => Vec::new(),
        };
        if k != 0 || varying.is_empty() {
            return self.draw(seed);
        }
        let odd = |spec: &CaseSpec| {
            varying
                .iter()
                .filter(|&&d| d < 3 && !is_power_of_two(i64::from(spec.workgroup_size[d])))
                .count()
        };
        let mut best: Option<(usize, CaseSpec)> = None;
        for attempt in 0..NON_POW2_TRIES {
            let spec = self.draw(if attempt == 0 { seed } else { case_seed(seed, attempt) })?;
            let score = odd(&spec);
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                let done = score == varying.len();
                best = Some((score, spec));
                if done {
                    break;
                }
            }
        }
        Ok(best.expect("at least one draw").1)
    }

    /// The variables drawn for `seed` and the computed template, with the
    /// variables' values written out for messages.
    fn draw_table(&self, seed: u64) -> Result<(toml::Value, String), GeneratorError> {
        let mut rng = SplitMix64::new(seed);
        let mut env = BTreeMap::new();
        env.insert("seed".to_string(), (seed & 0xFFFF_FFFF) as i64);
        for v in &self.vars {
            let bound = |e: &Expr| {
                e.eval(&env)
                    .map_err(|message| GeneratorError::Compute { text: v.name.clone(), message })
            };
            let (lo, hi) = (bound(&v.lo)?, bound(&v.hi)?);
            if hi < lo {
                return Err(GeneratorError::EmptyRange { var: v.name.clone(), lo, hi });
            }
            env.insert(v.name.clone(), draw_biased(&mut rng, lo, hi));
        }
        fn subst(
            v: &toml::Value,
            env: &BTreeMap<String, i64>,
        ) -> Result<toml::Value, GeneratorError> {
            Ok(match v {
                toml::Value::String(s) if s.starts_with('=') => {
                    let compute = |message| GeneratorError::Compute { text: s.clone(), message };
                    toml::Value::Integer(
                        parse(&s[1..]).map_err(compute)?.eval(env).map_err(compute)?,
                    )
                }
                toml::Value::Array(a) => {
                    toml::Value::Array(a.iter().map(|x| subst(x, env)).collect::<Result<_, _>>()?)
                }
                toml::Value::Table(t) => toml::Value::Table(
                    t.iter().map(|(k, x)| Ok((k.clone(), subst(x, env)?))).collect::<Result<
                        _,
                        GeneratorError,
                    >>(
                    )?,
                ),
                other => other.clone(),
            })
        }
        let table = subst(&toml::Value::Table(self.template.clone()), &env)?;
        let vars: Vec<String> =
            self.vars.iter().map(|v| format!("{} = {}", v.name, env[&v.name])).collect();
        Ok((table, vars.join(", ")))
    }
}

/// How many draws [`Generator::draw_for_run`] tries for workgroup sizes
/// that are not powers of two.
pub const NON_POW2_TRIES: usize = 64;

/// Whether `x` is a power of two (1, 2, 4, …); 0 and negatives are not.
pub(crate) fn is_power_of_two(x: i64) -> bool {
    x > 0 && x & (x - 1) == 0
}

/// One value of `lo..=hi` (not empty), biased as [`Generator::draw`] says.
fn draw_biased(rng: &mut SplitMix64, lo: i64, hi: i64) -> i64 {
    let span = (hi - lo) as u64 + 1;
    let mode = rng.next_u64() >> 60;
    let mut uniform = || lo + (rng.next_u64() % span) as i64;
    match mode {
        0 | 1 => lo,
        2 | 3 => hi,
        4 => (lo + 1).min(hi),
        5 => (hi - 1).max(lo),
        6 | 7 => {
            // Rejection sampling: in any range with a value from 3 up that is
            // not a power of two, most values are such, so a few tries do.
            (0..32)
                .map(|_| uniform())
                .find(|&x| x >= 3 && !is_power_of_two(x))
                .unwrap_or_else(&mut uniform)
        }
        _ => uniform(),
    }
}

#[cfg(test)]
mod tests;
