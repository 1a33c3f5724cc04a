// expect: failed
// Wrong on purpose: s is the sum of dy over the row, not its dot product with
// y. The reduction is right, but the term it reduces is: yᵀ dy weighs each
// column's gradient by its probability. With a row of y summing to 1 the two
// agree only by accident; in "row 0 has a constant dy: its dx is 0", row 0
// comes out as y · (3 - 18) instead of 0.
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
            p += dy[base + c];
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

    for (var c = i; c < cols; c += W) {
        dx[base + c] = y[base + c] * (dy[base + c] - s);
    }
}
