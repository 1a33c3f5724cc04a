// expect: runaway-loop at 9
// Wrong on purpose: i starts at 0 and `i * 2u` keeps it there, so the loop
// never ends. The instrumented run stops it and names its line.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    var x = a[local_id.x];
    for (var i = 0u; i < 10u; i = i * 2u) {
        x += 1.0;
    }
    out[local_id.x] = x;
}
