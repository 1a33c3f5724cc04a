// expect: memory-error in some cases
// message: race: `tile[
// Wrong on purpose: no workgroupBarrier() between filling the tile and reading it. An
// invocation's window takes in tile cells that other invocations of its workgroup load, and
// nothing makes it wait for their stores: a read-after-write race in workgroup memory, which
// the judge reports (on a GPU the value read may also be the stale one). With k = 1 each
// invocation reads only the cell it loaded itself, and with one invocation per workgroup there
// is no one to race with, so those cases pass.
const wgs = vec3({{workgroupSize}});

struct Dims {
    rows: u32,
    cols: u32,
    k: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> f: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;
var<workgroup> tile: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let k = dims.k;
    let r = i32(k / 2u);
    let tw = u32(wgs.x) + k - 1u;
    let th = u32(wgs.y) + k - 1u;
    let top = i32(workgroup_id.y * u32(wgs.y)) - r;
    let left = i32(workgroup_id.x * u32(wgs.x)) - r;
    for (var t = local_index; t < tw * th; t += u32(wgs.x * wgs.y)) {
        let y = top + i32(t / tw);
        let x = left + i32(t % tw);
        var v = 0.0;
        if (y >= 0 && y < i32(dims.rows) && x >= 0 && x < i32(dims.cols)) {
            v = a[u32(y) * dims.cols + u32(x)];
        }
        tile[t] = v;
    }
    // (the barrier belongs here)
    if (global_id.y < dims.rows && global_id.x < dims.cols) {
        var sum = 0.0;
        for (var i = 0u; i < k; i++) {
            for (var j = 0u; j < k; j++) {
                sum += f[i * k + j] * tile[(local_id.y + i) * tw + local_id.x + j];
            }
        }
        out[global_id.y * dims.cols + global_id.x] = sum;
    }
}
