// expect: memory-error
// message: out-of-bounds read at line 10
// Wrong on purpose: reads `a[i]` before the guard. The value is never used
// past the end, but the read itself is out of bounds: other devices fault.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let v = a[local_id.x];
    if (local_id.x < arrayLength(&a)) {
        out[local_id.x] = v + 10.0;
    }
}
