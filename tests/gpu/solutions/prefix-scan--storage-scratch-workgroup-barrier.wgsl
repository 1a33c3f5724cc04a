// expect: memory-error in some cases
// message: no `storageBarrier()` between them
// Wrong on purpose: scans in place in the storage buffer `out`, ordered by
// workgroupBarrier(), which orders only workgroup memory (WGSL's
// workgroupBarrier has workgroup memory semantics; storage needs storageBarrier).
const wgs = vec3({{workgroupSize}});
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    let i = lid.x;
    let n = arrayLength(&a);
    if (i < n) { out[i] = a[i]; }
    workgroupBarrier();
    var offset = 1u;
    loop {
        if (offset >= n) { break; }
        var left = 0.0;
        if (i < n && i >= offset) { left = out[i - offset]; }
        workgroupBarrier();
        if (i < n) { out[i] = out[i] + left; }
        workgroupBarrier();
        offset = offset << 1u;
    }
}
