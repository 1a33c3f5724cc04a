//! A buffer's initial values from its `[[case]]` entry: literal, `arange`,
//! `fill` or seeded `random`, converted to the buffer's element type.

use crate::format::{BufferInit, ElementType};
use crate::generate;
use crate::model::Values;

/// Largest element count a case may give one buffer: 64 Mi elements
/// (256 MiB), above WebGPU's default `maxStorageBufferBindingSize` of 128 MiB,
/// so the limit check, not the loader, reports the realistic cases.
pub const MAX_ELEMENTS: u32 = 1 << 26;

/// Checks a generator without running it and returns the element count it
/// will give: [`initial_values`] on the first few elements, which meets
/// every check that does not depend on the length.
pub(super) fn checked_len(init: &BufferInit, element: ElementType) -> Result<usize, String> {
    const PROBE: u32 = 16;
    let mut probe = init.clone();
    let len = if let Some(v) = &init.values {
        v.len()
    } else if let Some(n) = init.arange {
        check_len(n)?;
        probe.arange = Some(n.min(PROBE));
        // The largest value must fit the type as well as the first ones.
        convert(&[init.start.unwrap_or(0.0) + n.saturating_sub(1) as f64], element)?;
        n as usize
    } else if init.fill.is_some() {
        let n = init.len.ok_or("`fill` needs `len`")?;
        check_len(n)?;
        probe.len = Some(n.min(PROBE));
        n as usize
    } else if let Some(o) = init.offsets {
        check_len(o.rows.saturating_add(1))?;
        check_len(o.total)?;
        // The draw is checked whole: it costs one step per entry.
        o.rows as usize + 1
    } else if let Some(r) = init.random {
        check_len(r.len)?;
        probe.random = Some(crate::format::RandomSpec { len: r.len.min(PROBE), ..r });
        convert(&[r.min as f64, r.max as f64], if r.float { ElementType::F32 } else { element })?;
        r.len as usize
    } else {
        0
    };
    if init.fill.is_none() && init.values.is_none() {
        if let Some(l) = init.len {
            if l as usize != len {
                return Err(format!("`len` is {l} but the contents have {len} elements"));
            }
        }
        probe.len = None;
    }
    initial_values(&probe, element)?;
    Ok(len)
}

pub(crate) fn initial_values(init: &BufferInit, element: ElementType) -> Result<Values, String> {
    let given = [
        init.values.is_some(),
        init.arange.is_some(),
        init.fill.is_some(),
        init.random.is_some(),
        init.offsets.is_some(),
    ];
    match given.iter().filter(|&&g| g).count() {
        0 => return Err(
            "needs contents: one of `values`, `arange`, `fill` (with `len`), `random` or `offsets`"
                .into(),
        ),
        1 => {}
        _ => {
            return Err("give only one of `values`, `arange`, `fill`, `random` and `offsets`".into())
        }
    }
    let raw = if let Some(v) = &init.values {
        v.clone()
    } else if let Some(n) = init.arange {
        check_len(n)?;
        generate::arange(n, init.start.unwrap_or(0.0))
    } else if let Some(x) = init.fill {
        let n = init.len.ok_or("`fill` needs `len`")?;
        check_len(n)?;
        vec![x; n as usize]
    } else if let Some(o) = init.offsets {
        check_len(o.rows.saturating_add(1))?;
        check_len(o.total)?;
        if o.rows == 0 {
            return Err("offsets: `rows` must be at least 1".into());
        }
        if o.longest.is_some_and(|l| l > o.total) {
            return Err(format!(
                "offsets: `longest` ({}) is more than `total` ({})",
                o.longest.unwrap_or(0),
                o.total
            ));
        }
        generate::row_offsets(&o)
    } else {
        let r = init.random.expect("counted above");
        check_len(r.len)?;
        if r.min > r.max || (r.float && r.min == r.max) {
            return Err(format!("random: `min` ({}) must be below `max` ({})", r.min, r.max));
        }
        if r.float && element != ElementType::F32 {
            return Err(format!(
                "random: `float = true` needs an f32 buffer, not {}",
                element.wgsl()
            ));
        }
        generate::random_values(&r)
    };
    if raw.is_empty() {
        return Err("a buffer needs at least one element (WebGPU has no empty bindings)".into());
    }
    if init.fill.is_none() {
        if let Some(len) = init.len {
            if len as usize != raw.len() {
                return Err(format!("`len` is {len} but the contents have {} elements", raw.len()));
            }
        }
    }
    convert(&raw, element)
}

pub(super) fn check_len(n: u32) -> Result<(), String> {
    if n > MAX_ELEMENTS {
        Err(format!("{n} elements is more than the {MAX_ELEMENTS} a case may use"))
    } else {
        Ok(())
    }
}

/// Converts manifest numbers to typed values, refusing fractions and
/// out-of-range values for integer types.
pub(super) fn convert(raw: &[f64], element: ElementType) -> Result<Values, String> {
    let bad = |i: usize, x: f64, what: &str| Err(format!("element {i} ({x}) is not {what}"));
    match element {
        ElementType::F32 => Ok(Values::F32(raw.iter().map(|&x| x as f32).collect())),
        ElementType::I32 => {
            let mut v = Vec::with_capacity(raw.len());
            for (i, &x) in raw.iter().enumerate() {
                if x.fract() != 0.0 || x < i32::MIN as f64 || x > i32::MAX as f64 {
                    return bad(i, x, "an i32");
                }
                v.push(x as i32);
            }
            Ok(Values::I32(v))
        }
        ElementType::U32 => {
            let mut v = Vec::with_capacity(raw.len());
            for (i, &x) in raw.iter().enumerate() {
                if x.fract() != 0.0 || x < 0.0 || x > u32::MAX as f64 {
                    return bad(i, x, "a u32");
                }
                v.push(x as u32);
            }
            Ok(Values::U32(v))
        }
    }
}
