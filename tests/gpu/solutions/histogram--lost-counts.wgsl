// expect: memory-error in some cases
// message: lost update: `bins[
// The naive histogram: a plain read-modify-write per value, which races.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> bins: array<u32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let i = global_id.x;
    if (i < arrayLength(&a)) {
        bins[u32(floor(a[i]))] += 1u;
    }
}
