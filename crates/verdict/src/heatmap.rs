//! View models of the heat maps: the dispatch's workgroups and invocations,
//! and each buffer's elements, with the counts of an instrumented run.
//! The site draws them as SVG; the layout and the numbers live here.

use crate::trace::{invocation, Findings};
use gpu_puzzles_core::model::CaseConfig;

/// Most cells a heat map draws; larger ones put several items in a cell
/// (summed) and say so.
pub const MAX_HEAT_CELLS: usize = 4096;

/// A grid of coloured cells.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatMap {
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
    /// Cells, row-major; `rows * cols` long (trailing cells of a wrapped
    /// 1-D layout are `None`).
    pub cells: Vec<Option<HeatCell>>,
    /// Largest value, for the colour scale.
    pub max: u32,
    /// Items per cell (1 unless the map was binned).
    pub per_cell: usize,
    /// Grid lines every `group[0]` columns and `group[1]` rows (workgroup
    /// borders in the thread map); `[0, 0]` for none.
    pub group: [usize; 2],
}

/// One cell.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatCell {
    /// The value coloured (a count, or a workgroup number for writer maps).
    pub value: u32,
    /// Shown in the cell when it fits (small maps).
    pub label: String,
    /// Hover text: ids and counts.
    pub title: String,
    /// Drawn as idle (no accesses at all).
    pub idle: bool,
}

impl HeatMap {
    /// The map in words, for a reader who cannot see its colours (a
    /// screen reader reads it as the figure's description): how many
    /// cells, the range of their values, how many are at the largest and
    /// how many are empty. A `categorical` map (each cell a workgroup's
    /// number, from 1; 0 for none) counts the distinct workgroups instead.
    /// Binned maps say how many items a cell sums. `unit` names a cell's
    /// item in the plural (`elements`, `invocations`, `workgroups`). E.g.
    /// `64 elements: 0 to 2 each (mean 1.00); 2 at the most, 2; 2 with none`.
    pub fn summary(&self, categorical: bool, unit: &str) -> String {
        let cells: Vec<&HeatCell> = self.cells.iter().flatten().collect();
        let count = cells.len();
        // What a cell is: one of `unit`, or (binned) several.
        let (what, each) = if self.per_cell > 1 {
            (format!("{count} cells of {} {unit}", self.per_cell), "a cell")
        } else {
            (format!("{count} {unit}"), "each")
        };
        let empty = cells.iter().filter(|c| c.value == 0).count();
        if categorical {
            let mut groups: Vec<u32> = cells.iter().map(|c| c.value).filter(|&v| v > 0).collect();
            groups.sort_unstable();
            groups.dedup();
            let none = if empty > 0 { format!("; {empty} never written") } else { String::new() };
            return format!(
                "{what}: written by {} workgroup{}{none}",
                groups.len(),
                if groups.len() == 1 { "" } else { "s" }
            );
        }
        let (lo, hi) =
            cells.iter().fold((u32::MAX, 0), |(lo, hi), c| (lo.min(c.value), hi.max(c.value)));
        if count == 0 {
            return format!("no {unit}");
        }
        let mean = cells.iter().map(|c| f64::from(c.value)).sum::<f64>() / count as f64;
        let at_max = cells.iter().filter(|c| c.value == hi).count();
        let idle = cells.iter().filter(|c| c.idle).count();
        let mut out =
            format!("{what}: {lo} to {hi} {each} (mean {mean:.2}); {at_max} at the most, {hi}");
        if empty > 0 && lo == 0 {
            out += &format!("; {empty} with none");
        }
        if idle > 0 {
            out += &format!("; {idle} idle");
        }
        out
    }
}

fn bin(len: usize) -> usize {
    len.div_ceil(MAX_HEAT_CELLS).max(1)
}

/// Every invocation laid out by global position (x across, y down; z slices
/// stacked below each other), coloured by global reads + writes. Idle
/// invocations (no global or workgroup-memory access) are marked; workgroup
/// borders are drawn every workgroup size. `names` are the traced buffers'
/// names, for listing the elements each invocation wrote.
pub fn threads(findings: &Findings, config: &CaseConfig, names: &[&str]) -> HeatMap {
    let x = (config.workgroup_size[0] * config.workgroups[0]) as usize;
    let yz = (config.workgroup_size[1]
        * config.workgroups[1]
        * config.workgroup_size[2]
        * config.workgroups[2]) as usize;
    let n = findings.invocations.len();
    let per = bin(n);
    if per > 1 {
        return binned_1d(
            n,
            per,
            |i| {
                let c = findings.invocations[i];
                c[0] + c[1]
            },
            "invocations",
        );
    }
    let mut wrote: Vec<Vec<String>> = vec![Vec::new(); n];
    for (b, t) in findings.buffers.iter().enumerate() {
        for (e, w) in t.writer.iter().enumerate() {
            if let Some(list) = w.and_then(|inv| wrote.get_mut(inv as usize)) {
                if list.len() < 8 {
                    list.push(format!("{}[{e}]", names.get(b).copied().unwrap_or("?")));
                }
            }
        }
    }
    let cells = (0..x * yz)
        .map(|i| {
            let c = findings.invocations.get(i).copied().unwrap_or_default();
            let inv = invocation(i as u32, config);
            let wrote = match wrote.get(i) {
                Some(list) if !list.is_empty() => format!("; wrote {}", list.join(", ")),
                _ => String::new(),
            };
            Some(HeatCell {
                value: c[0] + c[1],
                label: (c[0] + c[1]).to_string(),
                title: format!("{}: {} global reads, {} global writes, {} workgroup-memory reads, {} writes{wrote}", inv.describe(), c[0], c[1], c[2], c[3]),
                idle: c.iter().all(|&v| v == 0),
            })
        })
        .collect::<Vec<_>>();
    let max = cells.iter().flatten().map(|c| c.value).max().unwrap_or(0);
    HeatMap {
        cols: x,
        rows: yz,
        cells,
        max,
        per_cell: 1,
        group: [config.workgroup_size[0] as usize, config.workgroup_size[1] as usize],
    }
}

/// The dispatch's workgroups (x across, y down, z stacked), coloured by the
/// global reads + writes of all their invocations.
pub fn workgroups(findings: &Findings, config: &CaseConfig) -> HeatMap {
    let [wx, wy, wz] = config.workgroups.map(|v| v as usize);
    let mut sums = vec![[0u32; 4]; wx * wy * wz];
    for (i, c) in findings.invocations.iter().enumerate() {
        let w = invocation(i as u32, config).workgroup_id.map(|v| v as usize);
        let k = w[0] + w[1] * wx + w[2] * wx * wy;
        if let Some(s) = sums.get_mut(k) {
            for j in 0..4 {
                s[j] = s[j].saturating_add(c[j]);
            }
        }
    }
    let per = bin(sums.len());
    if per > 1 {
        return binned_1d(sums.len(), per, |i| sums[i][0] + sums[i][1], "workgroups");
    }
    let cells: Vec<_> = sums
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let id = [k % wx, (k / wx) % wy, k / (wx * wy)];
            Some(HeatCell {
                value: s[0] + s[1],
                label: (s[0] + s[1]).to_string(),
                title: format!(
                    "workgroup_id ({}, {}, {}): {} global reads, {} global writes, {} workgroup-memory reads, {} writes",
                    id[0], id[1], id[2], s[0], s[1], s[2], s[3]
                ),
                idle: s.iter().all(|&v| v == 0),
            })
        })
        .collect();
    let max = cells.iter().flatten().map(|c| c.value).max().unwrap_or(0);
    HeatMap { cols: wx, rows: wy * wz, cells, max, per_cell: 1, group: [0, 0] }
}

/// Which counter of a buffer to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter {
    /// Reads per element.
    Reads,
    /// Writes per element.
    Writes,
    /// The workgroup that wrote each element (categorical: value is the
    /// workgroup's row-major number + 1, 0 for never written).
    Writer,
}

/// One buffer's elements, laid out like its grid (its `[rows, cols]` shape,
/// or rows of 16), coloured by `counter`.
pub fn buffer(
    findings: &Findings,
    buffer: usize,
    shape: Option<[u32; 2]>,
    config: &CaseConfig,
    counter: Counter,
    name: &str,
) -> HeatMap {
    let t = &findings.buffers[buffer];
    let len = t.reads.len();
    let value = |i: usize| -> u32 {
        match counter {
            Counter::Reads => t.reads[i],
            Counter::Writes => t.writes[i],
            Counter::Writer => t.writer[i]
                .map(|inv| {
                    let w = invocation(inv, config).workgroup_id;
                    w[0] + w[1] * config.workgroups[0]
                        + w[2] * config.workgroups[0] * config.workgroups[1]
                        + 1
                })
                .unwrap_or(0),
        }
    };
    let per = bin(len);
    if per > 1 {
        return binned_1d(len, per, value, "elements");
    }
    let cols = match shape {
        Some([r, c]) if (r as usize) * (c as usize) == len && c > 0 => c as usize,
        _ => len.clamp(1, crate::grid::WRAP_COLUMNS),
    };
    let rows = len.div_ceil(cols);
    let cells = (0..rows * cols)
        .map(|i| {
            (i < len).then(|| {
                let v = value(i);
                let title = match counter {
                    Counter::Writer => match t.writer[i] {
                        Some(inv) => {
                            format!("{name}[{i}] written by {}", invocation(inv, config).describe())
                        }
                        None => format!("{name}[{i}] never written"),
                    },
                    _ => format!("{name}[{i}]: {} reads, {} writes", t.reads[i], t.writes[i]),
                };
                let label = match counter {
                    Counter::Writer if v > 0 => (v - 1).to_string(),
                    Counter::Writer => String::new(),
                    _ => v.to_string(),
                };
                HeatCell { value: v, label, title, idle: t.reads[i] == 0 && t.writes[i] == 0 }
            })
        })
        .collect::<Vec<_>>();
    let max = cells.iter().flatten().map(|c| c.value).max().unwrap_or(0);
    HeatMap { cols, rows, cells, max, per_cell: 1, group: [0, 0] }
}

fn binned_1d(len: usize, per: usize, value: impl Fn(usize) -> u32, what: &str) -> HeatMap {
    let bins = len.div_ceil(per);
    let cols = bins.clamp(1, 64);
    let rows = bins.div_ceil(cols);
    let cells = (0..rows * cols)
        .map(|b| {
            (b < bins).then(|| {
                let range = b * per..((b + 1) * per).min(len);
                let v: u32 = range.clone().map(&value).fold(0u32, u32::saturating_add);
                HeatCell {
                    value: v,
                    label: String::new(),
                    title: format!("{what} {}–{}: {v}", range.start, range.end - 1),
                    idle: v == 0,
                }
            })
        })
        .collect::<Vec<_>>();
    let max = cells.iter().flatten().map(|c| c.value).max().unwrap_or(0);
    HeatMap { cols, rows, cells, max, per_cell: per, group: [0, 0] }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::BufferTrace;

    fn config() -> CaseConfig {
        CaseConfig { workgroup_size: [2, 1, 1], workgroups: [3, 1, 1], workgroup_memory: None }
    }

    fn findings() -> Findings {
        Findings {
            buffers: vec![BufferTrace {
                reads: vec![1, 1, 1, 1, 0],
                writes: vec![1, 1, 1, 1, 0],
                writer: vec![Some(0), Some(1), Some(2), Some(3), None],
            }],
            invocations: vec![
                [1, 1, 0, 0, 0],
                [1, 1, 0, 0, 0],
                [1, 1, 0, 0, 0],
                [1, 1, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
            ..Default::default()
        }
    }

    #[test]
    fn threads_mark_idle_invocations_and_workgroup_borders() {
        let m = threads(&findings(), &config(), &["out"]);
        assert_eq!((m.cols, m.rows, m.group), (6, 1, [2, 1]));
        let idle: Vec<bool> = m.cells.iter().map(|c| c.as_ref().unwrap().idle).collect();
        assert_eq!(idle, [false, false, false, false, true, true]);
        assert!(m.cells[5]
            .as_ref()
            .unwrap()
            .title
            .contains("workgroup_id (2, 0, 0), local_invocation_id (1, 0, 0)"));
        assert!(m.cells[3].as_ref().unwrap().title.ends_with("wrote out[3]"));
    }

    #[test]
    fn workgroups_sum_their_invocations() {
        let m = workgroups(&findings(), &config());
        let v: Vec<u32> = m.cells.iter().map(|c| c.as_ref().unwrap().value).collect();
        assert_eq!(v, [4, 4, 0]);
    }

    #[test]
    fn writer_map_names_the_workgroup() {
        let m = buffer(&findings(), 0, None, &config(), Counter::Writer, "out");
        let v: Vec<u32> = m.cells.iter().map(|c| c.as_ref().unwrap().value).collect();
        assert_eq!(v, [1, 1, 2, 2, 0]);
        assert_eq!(m.cells[2].as_ref().unwrap().label, "1");
    }

    #[test]
    fn big_maps_are_binned() {
        let f = Findings { invocations: vec![[1, 0, 0, 0, 0]; 10_000], ..Default::default() };
        let c = CaseConfig {
            workgroup_size: [100, 1, 1],
            workgroups: [100, 1, 1],
            workgroup_memory: None,
        };
        let m = threads(&f, &c, &[]);
        assert!(m.cells.len() <= MAX_HEAT_CELLS);
        assert_eq!(m.per_cell, 3);
        assert_eq!(m.cells.iter().flatten().map(|c| c.value).sum::<u32>(), 10_000);
    }

    #[test]
    fn a_map_in_words() {
        let cell = |value, idle| {
            Some(HeatCell { value, label: String::new(), title: String::new(), idle })
        };
        let m = HeatMap {
            cols: 3,
            rows: 2,
            cells: vec![
                cell(0, true),
                cell(2, false),
                cell(2, false),
                cell(1, false),
                cell(0, false),
                None,
            ],
            max: 2,
            per_cell: 1,
            group: [0, 0],
        };
        assert_eq!(
            m.summary(false, "elements"),
            "5 elements: 0 to 2 each (mean 1.00); 2 at the most, 2; 2 with none; 1 idle"
        );
        // As a writer map: cells 2, 2 and 1 are workgroups 2 and 1.
        assert_eq!(
            m.summary(true, "elements"),
            "5 elements: written by 2 workgroups; 2 never written"
        );
        let binned = HeatMap { per_cell: 4, cells: vec![cell(3, false)], cols: 1, rows: 1, ..m };
        assert_eq!(
            binned.summary(false, "elements"),
            "1 cells of 4 elements: 3 to 3 a cell (mean 3.00); 1 at the most, 3"
        );
    }
}
