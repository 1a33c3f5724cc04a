// Comparison kernel: correct, and written without the split. The workgroups
// (0, h), one per head, each walk the whole of the head's cache in chunks of
// `split` keys, with the online softmax of Fused Attention at workgroup
// scale: the chunk's scores go to workgroup memory, the workgroup reduces
// their maximum, rescales its running sum and accumulators when the maximum
// grows, and adds the chunk's weights and weighted rows of v. The other
// workgroups, and the whole of `combine`, have nothing to do. Per chunk it
// is as fast as a split, but the chunks of a head follow one another in one
// workgroup: at decode time that leaves `heads` workgroups to run, 32 in the
// performance cases, where the split kernel has splits × heads.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations per workgroup, at most 64

struct Params {
    heads: u32,    // query heads
    kv_heads: u32, // key/value heads: divides heads
    d: u32,        // elements per head vector, at most 64
    t: u32,        // keys in the cache
    capacity: u32, // rows per kv head
    split: u32,    // keys per chunk here
}

@group(0) @binding(0) var<storage, read> q: array<f32>;             // heads × d
@group(0) @binding(1) var<storage, read> k_cache: array<f32>;       // kv_heads × capacity × d
@group(0) @binding(2) var<storage, read> v_cache: array<f32>;       // kv_heads × capacity × d
@group(0) @binding(3) var<storage, read_write> scratch: array<f32>; // unused
@group(0) @binding(4) var<storage, read_write> out: array<f32>;     // heads × d
@group(0) @binding(5) var<uniform> params: Params;

var<workgroup> p: array<f32, {{smemSize}}>; // the chunk's scores, then weights
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
fn attend_split(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    if (workgroup_id.x != 0u) {
        return; // the same for the whole workgroup, so no barrier is skipped by some only
    }
    let i = local_id.x;
    let h = workgroup_id.y;
    let d = params.d;
    let kv = h / (params.heads / params.kv_heads);
    let scale = inverseSqrt(f32(d));
    var m = -3.0e38;
    var l = 0.0;
    var acc: array<f32, 64>; // acc[k] is column i + k · W
    for (var start = 0u; start < params.t; start += params.split) {
        let n = min(params.split, params.t - start);
        let rows = kv * params.capacity + start;
        var local_max = -3.0e38;
        for (var j = i; j < n; j += W) {
            var dot = 0.0;
            for (var c = 0u; c < d; c++) {
                dot += q[h * d + c] * k_cache[(rows + j) * d + c];
            }
            p[j] = dot * scale;
            local_max = max(local_max, p[j]);
        }
        let new_m = max(m, reduce(i, local_max, true));
        let rescale = exp(m - new_m); // 1 when the maximum stays, 0 on the first chunk
        m = new_m;
        var local_sum = 0.0;
        for (var j = i; j < n; j += W) {
            p[j] = exp(p[j] - m);
            local_sum += p[j];
        }
        l = l * rescale + reduce(i, local_sum, false);
        for (var c = i; c < d; c += W) {
            var chunk = 0.0;
            for (var j = 0u; j < n; j++) {
                chunk += p[j] * v_cache[(rows + j) * d + c];
            }
            acc[c / W] = acc[c / W] * rescale + chunk;
        }
        workgroupBarrier(); // everyone is done with p before the next chunk overwrites it
    }
    for (var c = i; c < d; c += W) {
        out[h * d + c] = acc[c / W] / l;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn combine() {}
