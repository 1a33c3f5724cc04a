// expect: memory-error in some cases
// Wrong on purpose: no barrier between the rounds of the reduction. A round
// reads smem[i + half], which an invocation wrote in the round before, and
// nothing makes that write happen first; nor does anything order the last
// round's store into smem[0] before every invocation reads s from it. The
// race check sees the conflicting accesses on every case with two partials
// or more. With one partial (one invocation, or one column) there are no
// rounds and nothing to race, and those cases pass.
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
    }
    let s = smem[0];

    for (var c = i; c < cols; c += W) {
        dx[base + c] = y[base + c] * (dy[base + c] - s);
    }
}
