// expect: over-budget in some cases
// message: and this puzzle allows 2 per invocation
// Wrong on purpose: the values are right, but the technique is missing.
// Invocation 0 walks the whole array alone, reading every a[j] from device
// memory, the loop the statement warns about (n steps, each waiting for the
// last). The budget of two storage reads per invocation catches it on every
// case with more than two elements; smaller cases cannot tell.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    if (local_id.x == 0u) {
        var sum = 0.0;
        for (var j = 0u; j < arrayLength(&a); j++) {
            sum += a[j];
            out[j] = sum;
        }
    }
}
