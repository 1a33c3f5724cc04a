// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    // TODO: add 10 to the element of `a` this invocation owns, store it in `out`.
}
