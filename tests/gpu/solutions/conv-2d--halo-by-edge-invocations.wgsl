// expect: failed
// Wrong on purpose: each invocation loads its own cell of the tile, and only the invocations
// within r of the workgroup's edge load the halo, one cell each per side (and one per corner):
// the invocation in column lx < r loads halo column lx, the one in column lx >= wgs.x - r
// loads halo column lx + 2r, and the same for rows. That covers the halo only when
// r <= wgs.x and r <= wgs.y (k - 1 <= 2 · w). In "7 × 7 filter, 1 × 8 workgroups" the halo is
// 3 columns wide on each side of a 1-wide workgroup: columns 1, 2, 4 and 5 of the tile are
// never loaded and stay 0, so the sums come out wrong. Cases where the workgroup is at least
// r wide and tall pass.
const wgs = vec3({{workgroupSize}});
const WX = u32(wgs.x);
const WY = u32(wgs.y);

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

// Tile cell (ty, tx) of the workgroup whose tile starts at image cell (top, left).
fn load(ty: u32, tx: u32, top: i32, left: i32, tw: u32) {
    let y = top + i32(ty);
    let x = left + i32(tx);
    var v = 0.0;
    if (y >= 0 && y < i32(dims.rows) && x >= 0 && x < i32(dims.cols)) {
        v = a[u32(y) * dims.cols + u32(x)];
    }
    tile[ty * tw + tx] = v;
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let k = dims.k;
    let r = k / 2u;
    let tw = WX + k - 1u;
    let top = i32(workgroup_id.y * WY) - i32(r);
    let left = i32(workgroup_id.x * WX) - i32(r);
    let lx = local_id.x;
    let ly = local_id.y;
    let left_edge = lx < r;
    let right_edge = lx + r >= WX;
    let top_edge = ly < r;
    let bottom_edge = ly + r >= WY;
    // The invocation's own cell.
    load(ly + r, lx + r, top, left, tw);
    // One halo cell on each side the invocation is near.
    if (left_edge) { load(ly + r, lx, top, left, tw); }
    if (right_edge) { load(ly + r, lx + 2u * r, top, left, tw); }
    if (top_edge) { load(ly, lx + r, top, left, tw); }
    if (bottom_edge) { load(ly + 2u * r, lx + r, top, left, tw); }
    // And the corners.
    if (top_edge && left_edge) { load(ly, lx, top, left, tw); }
    if (top_edge && right_edge) { load(ly, lx + 2u * r, top, left, tw); }
    if (bottom_edge && left_edge) { load(ly + 2u * r, lx, top, left, tw); }
    if (bottom_edge && right_edge) { load(ly + 2u * r, lx + 2u * r, top, left, tw); }
    workgroupBarrier();
    if (global_id.y < dims.rows && global_id.x < dims.cols) {
        var sum = 0.0;
        for (var i = 0u; i < k; i++) {
            for (var j = 0u; j < k; j++) {
                sum += f[i * k + j] * tile[(ly + i) * tw + lx + j];
            }
        }
        out[global_id.y * dims.cols + global_id.x] = sum;
    }
}
