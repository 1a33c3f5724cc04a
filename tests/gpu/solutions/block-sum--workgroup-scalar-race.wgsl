// expect: memory-error
// message: lost update: `total` (workgroup memory)
// Wrong on purpose: every invocation adds into one workgroup scalar, one after
// another in a loop but with no barrier between them: a race on `total`.
const wgs = vec3<u32>({{workgroupSize}});
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> total: f32;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    if (lid.x == 0u) { total = 0.0; }
    workgroupBarrier();
    var x = 0.0;
    if (gid.x < arrayLength(&a)) { x = a[gid.x]; }
    for (var k = 0u; k < wgs.x; k++) {
        if (k == lid.x) { total += x; }
    }
    workgroupBarrier();
    if (lid.x == 0u) { out[wid.x] = total; }
}
