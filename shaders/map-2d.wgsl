// Map 2D: x is the column, y the row; the matrix is square and row-major.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let size = u32(round(sqrt(f32(arrayLength(&a)))));
    let col = local_id.x;
    let row = local_id.y;
    if (row < size && col < size) {
        let i = row * size + col;
        out[i] = a[i] + 10.0;
    }
}
