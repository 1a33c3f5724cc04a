// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

@group(0) @binding(0) var<storage, read> a: array<i32>;           // the input
@group(0) @binding(1) var<storage, read> b: array<i32>;           // the filter, 1 to 16 taps
@group(0) @binding(2) var<storage, read_write> out: array<i32>;   // as many elements as a
// (A scatter declares it `array<atomic<i32>>` instead: the bytes are the same.)

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    // TODO: out[i] = a[i]·b[0] + a[i+1]·b[1] + … for every i below
    // arrayLength(&a), leaving out the terms past the end of a. Gather (one
    // invocation per output) or scatter (one per input, with atomics)?
}
