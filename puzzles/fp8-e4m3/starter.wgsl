// Per test case, the page replaces {{workgroupSize}} and {{totalWorkgroups}}
// with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Params {
    n: u32, // values in x and back
}

@group(0) @binding(0) var<storage, read> x: array<u32>;            // n words: the bits of n f32 values
@group(0) @binding(1) var<storage, read_write> packed: array<u32>; // (n + 3) / 4 words: four E4M3 codes each, element 4k lowest
@group(0) @binding(2) var<storage, read_write> back: array<f32>;   // n: each code's value as an f32 (0 for a NaN)
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let k = global_id.x; // the word of packed this invocation writes, if there is one
    // TODO: if word k exists, encode x[4k] to x[4k + 3] (those that exist)
    // as FP8 E4M3 with integer operations on the bits: a NaN stays NaN with
    // its sign, 448 and more (infinity too) saturates to 448, anything else
    // rounds to nearest, ties to even, through the subnormals down to 0.
    // Put the four codes into packed[k], element 4k in the lowest byte, and
    // each code's value as an f32 into back.
}
