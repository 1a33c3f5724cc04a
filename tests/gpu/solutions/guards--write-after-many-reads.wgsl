// expect: memory-error
// message: out-of-bounds write at line 16
// Wrong on purpose: every invocation reads 20 times (all in bounds), then
// writes without a guard. The out-of-bounds writes come after many reads and
// must still be reported.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let n = arrayLength(&a);
    var x = 0.0;
    for (var k = 0u; k < 20u; k++) {
        x = a[min(local_id.x, n - 1u)];
    }
    out[local_id.x] = select(0.0, x + 10.0, local_id.x < n);
}
