// expect: compile-error at 8:49
// A missing semicolon after a placeholder on the same line: the column must
// point at the student's own text, not the substituted one.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let wg = vec3({{workgroupSize}}); let x = 1 let y = 2;
    out[local_id.x] = a[local_id.x] + 10.0;
}
