//! Reading printed values back into lines, and the order of the log.

use super::*;
use gpu_puzzles_core::print::sites;

#[test]
fn lines_show_each_value_beside_its_text() {
    let sites = sites("{ print(i, v); }");
    let line = PrintLine {
        site: 0,
        entry_point: 0,
        invocation: Invocation { id: 5, workgroup_id: [1, 0, 0], local_invocation_id: [1, 0, 0] },
        values: vec![
            PrintValue(vec![PrintScalar::U32(5)]),
            PrintValue(vec![PrintScalar::F32(0.5), PrintScalar::F32(-2.0)]),
        ],
    };
    assert_eq!(
        PrintLog::describe(&line, &sites),
        "line 1 · workgroup (1, 0, 0) · invocation (1, 0, 0): i = 5u, v = (0.5, -2.0)"
    );
    assert_eq!(line.words(), 6);
}

#[test]
fn the_log_orders_by_entry_point_workgroup_and_invocation_keeping_each_invocations_order() {
    let line = |entry_point, wg: u32, local: u32, v: u32| PrintLine {
        site: 0,
        entry_point,
        invocation: Invocation {
            id: 0,
            workgroup_id: [wg, 0, 0],
            local_invocation_id: [local, 0, 0],
        },
        values: vec![PrintValue(vec![PrintScalar::U32(v)])],
    };
    let mut log = PrintLog {
        lines: vec![
            line(1, 0, 0, 0),
            line(0, 1, 0, 1),
            line(0, 0, 1, 2),
            line(0, 0, 1, 3),
            line(0, 0, 0, 4),
        ],
        dropped: 0,
    };
    log.sort();
    let order: Vec<u32> = log
        .lines
        .iter()
        .map(|l| if let PrintScalar::U32(v) = l.values[0].0[0] { v } else { 99 })
        .collect();
    assert_eq!(order, [4, 2, 3, 1, 0]);
}
