// expect: compile-error at 48:9
// message: the `break` or `continue` at line 40 is taken by only some invocations
// Wrong on purpose: the walk over the row's words keeps the workgroup in
// step with a barrier in every round, but the loop ends with a `break` that
// each invocation takes at its own round (k starts at its own index): an
// invocation that has left the loop never arrives at the barrier the others
// wait at. Chromium's compiler rejects this shader and naga (Firefox's, and
// the native one) accepts it; the judge's synccheck must refuse it in every
// engine, at the barrier.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
    group: u32,
}

@group(0) @binding(0) var<storage, read> w: array<u32>;
@group(0) @binding(1) var<storage, read> scales: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read_write> y: array<f32>;
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 8u;
    let groups = dims.cols / dims.group;
    let per_group = dims.group / 8u;
    var sum = 0.0;
    for (var k = i; ; k += W) {
        if (k >= words) {
            break;
        }
        let word = i32(w[row * words + k]);
        var part = 0.0;
        for (var j = 0u; j < 8u; j++) {
            part += f32(extractBits(word, 4u * j, 4u)) * x[8u * k + j];
        }
        sum += scales[row * groups + k / per_group] * part;
        workgroupBarrier();
    }
    smem[i] = sum;
    workgroupBarrier();
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        y[row] = smem[0];
    }
}
