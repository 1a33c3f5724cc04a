// expect: passed
// `var<storage>` defaults to read access; declarations split over lines and
// commented-out declarations must not confuse the binding scan.
// @group(0) @binding(2) var<uniform> out: f32;
@group(0) @binding(0) var<storage> a: array<f32>;
@group(0)
@binding(1)
var<storage> b: array<f32>;
/* @group(0) @binding(2) var<storage, read> out: array<f32>; */
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&out)) {
        out[id.x] = a[id.x] + b[id.x];
    }
}
