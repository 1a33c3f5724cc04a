// expect: runaway-loop at 20 in some cases
// Wrong on purpose: `stride /= 1u` never reaches 0. The loop holds a barrier,
// so the guard must stop every invocation of the workgroup together.
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
    for (var stride = u32(wgs.x) / 2u; stride > 0u; stride /= 1u) {
        if (i < stride) {
            smem[i] += smem[i + stride];
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        out[0] = smem[0];
    }
}
