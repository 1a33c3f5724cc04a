// Per test case, the page replaces {{workgroupSize}} and {{totalWorkgroups}}
// with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Params {
    n: u32, // values in x and back
}

@group(0) @binding(0) var<storage, read> x: array<u32>;            // n words: the bits of n f32 values
@group(0) @binding(1) var<storage, read_write> packed: array<u32>; // (n + 1) / 2 words: two bfloat16 each, element 2k low
@group(0) @binding(2) var<storage, read_write> back: array<f32>;   // n: each bfloat16 as an f32 (0 for a NaN)
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let k = global_id.x; // the word of packed this invocation writes, if there is one
    // TODO: if word k exists, round x[2k] (and x[2k + 1], if it exists) to
    // bfloat16 with integer operations on the bits: a NaN becomes a quiet
    // NaN of the same sign, anything else rounds to nearest, ties to even.
    // Write the two halves into packed[k], element 2k in the low half, and
    // each value back as an f32 into back.
}
