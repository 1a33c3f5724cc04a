// expect: memory-error in some cases
// message: (workgroup memory)
// Wrong on purpose: the "warp-synchronous" tail of CUDA folklore. Rounds
// with fewer than 32 active invocations skip the barrier, trusting the
// hardware to run them in lockstep. WGSL promises no such thing.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    var product = 0.0;
    if (i < arrayLength(&a)) {
        product = a[i] * b[i];
    }
    smem[i] = product;
    workgroupBarrier();
    for (var stride = u32(wgs.x) / 2u; stride > 0u; stride /= 2u) {
        if (i < stride) {
            smem[i] += smem[i + stride];
        }
        if (stride > 32u) {
            workgroupBarrier();
        }
    }
    if (i == 0u) {
        out[0] = smem[0];
    }
}
