// expect: memory-error in some cases
// message: (workgroup memory)
// Wrong on purpose: one barrier per round where a scan needs two. An
// invocation can overwrite smem[i] while its neighbour still reads it.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    let n = arrayLength(&a);
    var v = 0.0;
    if (i < n) {
        v = a[i];
    }
    smem[i] = v;
    workgroupBarrier();
    for (var offset = 1u; offset < u32(wgs.x); offset *= 2u) {
        if (i >= offset) {
            smem[i] += smem[i - offset];
        }
        workgroupBarrier();
    }
    if (i < n) {
        out[i] = smem[i];
    }
}
