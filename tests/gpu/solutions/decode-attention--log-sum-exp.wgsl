// expect: passed
// A correct kernel written another way. Each split stores its own finished
// softmax, out_s = acc_s / l_s, and its log-sum-exp, lse_s = m_s + log(l_s),
// as FlashAttention's split kernels do; the merge weighs split s by
// exp(lse_s - max lse) = l_s · exp(m_s - M) / exp(max lse - M), the same
// weights up to a common factor. The reductions are folded serially by
// invocation 0 and shared with workgroupUniformLoad, instead of a tree.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Params {
    heads: u32,
    kv_heads: u32,
    d: u32,
    t: u32,
    capacity: u32,
    split: u32,
}

@group(0) @binding(0) var<storage, read> q: array<f32>;
@group(0) @binding(1) var<storage, read> k_cache: array<f32>;
@group(0) @binding(2) var<storage, read> v_cache: array<f32>;
@group(0) @binding(3) var<storage, read_write> scratch: array<f32>; // per split: lse, then out_s (d floats)
@group(0) @binding(4) var<storage, read_write> out: array<f32>;
@group(0) @binding(5) var<uniform> params: Params;

var<workgroup> p: array<f32, {{smemSize}}>;
var<workgroup> red: array<f32, 64>;
var<workgroup> folded: f32;

// Every invocation's value, folded by invocation 0 into their maximum or
// their sum, and returned to all. workgroupUniformLoad is a barrier: it
// waits for invocation 0's fold (and for everyone to have stored first).
fn fold(i: u32, value: f32, is_max: bool) -> f32 {
    red[i] = value;
    workgroupBarrier();
    if (i == 0u) {
        var r = red[0];
        for (var k = 1u; k < W; k++) {
            r = select(r + red[k], max(r, red[k]), is_max);
        }
        folded = r;
    }
    return workgroupUniformLoad(&folded);
}

@compute @workgroup_size({{workgroupSize}})
fn attend_split(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let split = workgroup_id.x;
    let head = workgroup_id.y;
    let d = params.d;
    let first = split * params.split;
    let keys = min(params.t - first, params.split);
    let group = params.heads / params.kv_heads;
    let row0 = (head / group) * params.capacity + first;

    var biggest = -3.0e38;
    for (var j = i; j < keys; j += W) {
        var dot = 0.0;
        for (var c = 0u; c < d; c++) {
            dot += q[head * d + c] * k_cache[(row0 + j) * d + c];
        }
        p[j] = dot / sqrt(f32(d));
        biggest = max(biggest, p[j]);
    }
    let m = fold(i, biggest, true);
    var sum = 0.0;
    for (var j = i; j < keys; j += W) {
        p[j] = exp(p[j] - m);
        sum += p[j];
    }
    let l = fold(i, sum, false);

    let slot = (head * twg_x() + split) * (d + 2u);
    for (var c = i; c < d; c += W) {
        var acc = 0.0;
        for (var j = 0u; j < keys; j++) {
            acc += p[j] * v_cache[(row0 + j) * d + c];
        }
        scratch[slot + 1u + c] = acc / l;
    }
    if (i == 0u) {
        scratch[slot] = m + log(l);
    }
}

fn twg_x() -> u32 {
    return u32(vec3({{totalWorkgroups}}).x);
}

@compute @workgroup_size({{workgroupSize}})
fn combine(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let d = params.d;
    let head = workgroup_id.y;
    let splits = twg_x();
    if (workgroup_id.x == 0u) {
        for (var c = local_id.x; c < d; c += W) {
            var top = -3.0e38;
            for (var s = 0u; s < splits; s++) {
                top = max(top, scratch[(head * splits + s) * (d + 2u)]);
            }
            var weights = 0.0;
            var sum = 0.0;
            for (var s = 0u; s < splits; s++) {
                let at = (head * splits + s) * (d + 2u);
                let w = exp(scratch[at] - top);
                weights += w;
                sum += w * scratch[at + 1u + c];
            }
            out[head * d + c] = sum / weights;
        }
    }
}
