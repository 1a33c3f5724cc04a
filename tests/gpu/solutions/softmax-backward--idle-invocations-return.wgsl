// expect: compile-error at 40:5
// message: the `return` at line 33 is taken by only some invocations
// Wrong on purpose: on a row shorter than the workgroup, the invocations
// that hold no column return before the reduction, and the others wait at
// its barriers without them. Chromium's compiler rejects this shader and
// naga (Firefox's, and the native one) accepts it; the judge's synccheck
// must refuse it in every engine, at the first barrier.
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
    if (i >= parts) {
        return;
    }
    var p = 0.0;
    for (var c = i; c < cols; c += W) {
        p += dy[base + c] * y[base + c];
    }
    smem[i] = p;
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
