// expect: memory-error in some cases
// message: write conflict: `tile.v[0]` (workgroup memory)
// Wrong on purpose: the workgroup tile is a struct with a count before its
// array, and every invocation stores its element into `tile.v[0]`: a write
// conflict, named by the member and numbered from the array's start (the
// count's word is not element 0).
struct Tile {
    count: u32,
    v: array<f32, {{smemSize}}>,
}
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> tile: Tile;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i < arrayLength(&a)) {
        tile.v[0] = a[i];
    }
    workgroupBarrier();
    if (i < arrayLength(&a)) {
        out[i] = a[i] + 10.0;
    }
}
