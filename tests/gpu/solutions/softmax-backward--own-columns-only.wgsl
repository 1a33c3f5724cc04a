// expect: failed
// Wrong on purpose: each invocation uses the dot product of its own columns,
// i, i + wgs.x, …, as if that were the row's s. That is only one partial of
// the sum; the other invocations' partials never reach it, so s differs from
// one invocation to the next. It is right only where one invocation holds
// the whole row: a workgroup of one ("edge: the smallest sizes allowed",
// "edge: one invocation, rows of 100") or a row of one column.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> y: array<f32>;
@group(0) @binding(1) var<storage, read> dy: array<f32>;
@group(0) @binding(2) var<storage, read_write> dx: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let cols = dims.cols;
    let base = workgroup_id.x * cols;
    let parts = min(W, cols);

    var s = 0.0;
    for (var c = i; c < cols; c += W) {
        s += dy[base + c] * y[base + c];
    }
    for (var c = i; c < cols; c += W) {
        dx[base + c] = y[base + c] * (dy[base + c] - s);
    }
}
