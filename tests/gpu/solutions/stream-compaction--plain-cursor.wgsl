// expect: memory-error in some cases
// message: write conflict: `count[
// Wrong on purpose: a global cursor without an atomic. `count[0] = count[0] + 1u` is a load, an
// add and a store; two kept elements can load the same old value, take the same slot and lose
// an increment (as in Histogram). The judge reports the invocations that write count[0] in the
// same dispatch. A case with at most one kept element has nothing to race with, and passes.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> count: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
var<workgroup> kept: atomic<u32>;

@compute @workgroup_size({{workgroupSize}})
fn count_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let g = workgroup_id.x * u32(wgs.x) + local_id.x;
    if (g < arrayLength(&a) && a[g] > 0.0) {
        atomicAdd(&kept, 1u);
    }
    workgroupBarrier();
    if (local_id.x == 0u && workgroup_id.x < arrayLength(&block_counts)) {
        block_counts[workgroup_id.x] = atomicLoad(&kept);
    }
}

@compute @workgroup_size({{workgroupSize}})
fn scatter(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let g = workgroup_id.x * u32(wgs.x) + local_id.x;
    if (g < arrayLength(&a)) {
        let v = a[g];
        if (v > 0.0) {
            let slot = count[0];
            count[0] = slot + 1u;
            out[slot] = v;
        }
    }
}
