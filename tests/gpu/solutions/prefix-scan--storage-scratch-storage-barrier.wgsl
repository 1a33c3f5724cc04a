// expect: over-budget in some cases
// message: read storage buffers
// Scans in place in the storage buffer `out` (one workgroup per case),
// ordered by storageBarrier(): the values are right, and no race may be
// reported (a race would make the outcome memory-error, which precedes the
// budget). But it reads `out` from device memory in every round, past the
// puzzle's budget of two storage reads per invocation, which asks for the scan
// in workgroup memory; a single-element case stays within it.
const wgs = vec3({{workgroupSize}});
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;
@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    let i = lid.x;
    let n = arrayLength(&a);
    if (i < n) { out[i] = a[i]; }
    storageBarrier();
    var offset = 1u;
    loop {
        if (offset >= n) { break; }
        var left = 0.0;
        if (i < n && i >= offset) { left = out[i - offset]; }
        storageBarrier();
        if (i < n) { out[i] = out[i] + left; }
        storageBarrier();
        offset = offset << 1u;
    }
}
