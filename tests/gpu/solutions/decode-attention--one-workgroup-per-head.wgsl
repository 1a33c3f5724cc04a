// expect: over-budget in some cases
// message: over budget: workgroup (
// Right values, wrong method: no split. attend_split does nothing; in
// combine, the workgroups (0, h) each take a whole head, as the softmax of
// Softmax would: the invocations share the head's t keys (i, i + W, …), find
// the largest score in a first pass, then compute every score again for its
// weight, the sum of the weights and each invocation's weighted sum of v's
// rows, which the workgroup adds up column by column. Correct, but one
// workgroup reads the whole cache of its head, 3·t·d floats (k twice, v
// once), where a split reads three for each key of its own split. That is
// over the budget on "a longer cache" (shown), "ragged", "many splits", "a
// long cache" and the largest random sizes; where a head's keys are few next to a split (the worked
// example, "the largest split", …) it stays within it and passes.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Params {
    heads: u32,
    kv_heads: u32,
    d: u32,        // at most 64
    t: u32,
    capacity: u32,
    split: u32,
}

@group(0) @binding(0) var<storage, read> q: array<f32>;
@group(0) @binding(1) var<storage, read> k_cache: array<f32>;
@group(0) @binding(2) var<storage, read> v_cache: array<f32>;
@group(0) @binding(3) var<storage, read_write> scratch: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;
@group(0) @binding(5) var<uniform> params: Params;

var<workgroup> red: array<f32, 64>;

fn reduce(i: u32, value: f32, is_max: bool) -> f32 {
    red[i] = value;
    workgroupBarrier();
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            if (is_max) {
                red[i] = max(red[i], red[i + half]);
            } else {
                red[i] += red[i + half];
            }
        }
        workgroupBarrier();
    }
    let result = red[0];
    workgroupBarrier();
    return result;
}

@compute @workgroup_size({{workgroupSize}})
fn attend_split() {}

@compute @workgroup_size({{workgroupSize}})
fn combine(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    if (workgroup_id.x != 0u) {
        return;
    }
    let i = local_id.x;
    let h = workgroup_id.y;
    let d = params.d;
    let rows = (h / (params.heads / params.kv_heads)) * params.capacity;
    let scale = inverseSqrt(f32(d));
    var qh: array<f32, 64>;
    for (var c = 0u; c < d; c++) {
        qh[c] = q[h * d + c];
    }
    var local_max = -3.0e38;
    for (var j = i; j < params.t; j += W) {
        var dot = 0.0;
        for (var c = 0u; c < d; c++) {
            dot += qh[c] * k_cache[(rows + j) * d + c];
        }
        local_max = max(local_max, dot * scale);
    }
    let m = reduce(i, local_max, true);
    var l = 0.0;
    var acc: array<f32, 64>;
    for (var j = i; j < params.t; j += W) {
        var dot = 0.0;
        for (var c = 0u; c < d; c++) {
            dot += qh[c] * k_cache[(rows + j) * d + c];
        }
        let w = exp(dot * scale - m);
        l += w;
        for (var c = 0u; c < d; c++) {
            acc[c] += w * v_cache[(rows + j) * d + c];
        }
    }
    let total = reduce(i, l, false);
    for (var c = 0u; c < d; c++) {
        let column = reduce(i, acc[c], false);
        if (i == 0u) {
            out[h * d + c] = column / total;
        }
    }
}
