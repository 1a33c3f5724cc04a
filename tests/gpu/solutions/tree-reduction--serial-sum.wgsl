// expect: over-budget in some cases
// message: over budget: the invocation with workgroup_id (0, 0, 0), local_invocation_id (0, 0, 0) read storage buffers
// Right answer, wrong method: invocation 0 reads every element itself.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    if (local_id.x == 0u) {
        var sum = 0.0;
        for (var i = 0u; i < arrayLength(&a); i++) {
            sum += a[i] * b[i];
        }
        out[0] = sum;
    }
}
