// Blocks 2D: global ids cover the matrix; guards trim the edge workgroups.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let size = u32(round(sqrt(f32(arrayLength(&a)))));
    let col = global_id.x;
    let row = global_id.y;
    if (row < size && col < size) {
        let i = row * size + col;
        out[i] = a[i] + 10.0;
    }
}
