// expect: failed
// Wrong on purpose: the dot product covers the whole row, but each invocation
// writes one column, its own index i, as if every row fitted in the
// workgroup. Columns wgs.x and beyond keep the 0 dx started with. In
// "ragged: rows longer than the workgroup, 3 × 20, 8 invocations" the 12
// columns past the 8th are 0; cases whose rows fit in the workgroup pass.
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

    if (i < parts) {
        var p = 0.0;
        for (var c = i; c < cols; c += W) {
            p += dy[base + c] * y[base + c];
        }
        smem[i] = p;
    }
    workgroupBarrier();
    for (var n = parts; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    let s = smem[0];

    if (i < cols) {
        dx[base + i] = y[base + i] * (dy[base + i] - s);
    }
}
