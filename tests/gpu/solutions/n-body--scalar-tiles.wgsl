// expect: passed
// A correct kernel written another way than the reference: the buffers are
// declared as plain floats and read one float at a time (4 reads a body),
// the tile is four workgroup arrays (structure of arrays) instead of one of
// vec4s, the partial last tile is handled by stopping the inner loop at the
// last body instead of padding it with mass 0, and the pull is computed with
// sqrt and a division instead of inverseSqrt. It reads 4n + 7·wgs.x floats
// per workgroup at most, half the budget.
const wgs = vec3({{workgroupSize}});

struct Params {
    n: u32,
    dt: f32,
    eps2: f32,
}

@group(0) @binding(0) var<storage, read> pos: array<f32>;
@group(0) @binding(1) var<storage, read> vel: array<f32>;
@group(0) @binding(2) var<storage, read_write> pos_out: array<f32>;
@group(0) @binding(3) var<storage, read_write> vel_out: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;
var<workgroup> tx: array<f32, {{smemSize}}>;
var<workgroup> ty: array<f32, {{smemSize}}>;
var<workgroup> tz: array<f32, {{smemSize}}>;
var<workgroup> tm: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = params.n;
    let size = u32(wgs.x);
    let lx = local_id.x;
    let i = workgroup_id.x * size + lx;
    var px = 0.0;
    var py = 0.0;
    var pz = 0.0;
    if (i < n) {
        px = pos[4u * i];
        py = pos[4u * i + 1u];
        pz = pos[4u * i + 2u];
    }
    var ax = 0.0;
    var ay = 0.0;
    var az = 0.0;
    let tiles = (n + size - 1u) / size;
    for (var t = 0u; t < tiles; t++) {
        let base = t * size;
        let j = base + lx;
        if (j < n) {
            tx[lx] = pos[4u * j];
            ty[lx] = pos[4u * j + 1u];
            tz[lx] = pos[4u * j + 2u];
            tm[lx] = pos[4u * j + 3u];
        }
        workgroupBarrier();
        // Only the slots that hold a body of this round.
        let count = min(size, n - base);
        for (var k = 0u; k < count; k++) {
            let dx = tx[k] - px;
            let dy = ty[k] - py;
            let dz = tz[k] - pz;
            let r2 = dx * dx + dy * dy + dz * dz + params.eps2;
            let s = tm[k] / (r2 * sqrt(r2));
            ax += s * dx;
            ay += s * dy;
            az += s * dz;
        }
        workgroupBarrier();
    }
    if (i < n) {
        let vx = vel[3u * i] + params.dt * ax;
        let vy = vel[3u * i + 1u] + params.dt * ay;
        let vz = vel[3u * i + 2u] + params.dt * az;
        vel_out[3u * i] = vx;
        vel_out[3u * i + 1u] = vy;
        vel_out[3u * i + 2u] = vz;
        pos_out[4u * i] = px + params.dt * vx;
        pos_out[4u * i + 1u] = py + params.dt * vy;
        pos_out[4u * i + 2u] = pz + params.dt * vz;
        pos_out[4u * i + 3u] = pos[4u * i + 3u];
    }
}
