// Comparison kernel: the same counts, with the lanes of a subgroup spread
// down the whole picture. Invocation number i (counted workgroup by
// workgroup, so consecutive numbers share a subgroup) takes pixel
// (i % 32) * (total / 32) + i / 32 when the picture's pixel count is a
// multiple of 32: 32 neighbouring invocations get pixels from 32 bands of
// the picture, whose counts differ, so every subgroup runs as long as the
// slowest of 32 unrelated pixels. The reference gives neighbouring
// invocations neighbouring pixels, whose counts are close. (Other pixel
// counts keep the plain order: the values must be right on every case.)
struct Params {
    x0: i32,
    y0: i32,
    step: i32,
    rows: u32,
    cols: u32,
    max_iter: u32,
}

@group(0) @binding(0) var<storage, read_write> count: array<u32>;
@group(0) @binding(1) var<uniform> params: Params;

const F: u32 = 12u;
const ESCAPE: i32 = 4 << F;
const WGS = vec3<u32>({{workgroupSize}});

fn fmul(a: i32, b: i32) -> i32 {
    return (a * b) >> F;
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let total = params.rows * params.cols;
    let i = (wid.y * groups.x + wid.x) * (WGS.x * WGS.y) + local;
    if (i >= total) {
        return;
    }
    var p = i;
    if (total % 32u == 0u) {
        p = (i % 32u) * (total / 32u) + i / 32u;
    }
    let row = p / params.cols;
    let col = p % params.cols;
    let cx = params.x0 + i32(col) * params.step;
    let cy = params.y0 - i32(row) * params.step;
    var zx = 0;
    var zy = 0;
    var n = 0u;
    while (n < params.max_iter) {
        let x2 = fmul(zx, zx);
        let y2 = fmul(zy, zy);
        if (x2 + y2 > ESCAPE) {
            break;
        }
        let xy = fmul(zx, zy);
        zy = 2 * xy + cy;
        zx = x2 - y2 + cx;
        n += 1u;
    }
    count[p] = n;
}
