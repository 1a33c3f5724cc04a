// Comparison kernel: all pairs with no tile. Every invocation reads every
// body from `pos` itself, so a workgroup of wgs.x invocations issues wgs.x · n
// storage reads where the tiled kernel issues n and reads the rest from
// workgroup memory. The caches catch much of it; the timing shows how much.
struct Params {
    n: u32,    // bodies
    dt: f32,   // time step
    eps2: f32, // softening ε², above 0
}

@group(0) @binding(0) var<storage, read> pos: array<vec4<f32>>; // (x, y, z, m) per body
@group(0) @binding(1) var<storage, read> vel: array<f32>;       // (x, y, z) per body
@group(0) @binding(2) var<storage, read_write> pos_out: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> vel_out: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let i = global_id.x;
    if (i >= params.n) {
        return;
    }
    let me = pos[i];
    var acc = vec3(0.0);
    for (var j = 0u; j < params.n; j++) {
        let other = pos[j]; // one storage read per body per invocation
        let d = other.xyz - me.xyz;
        let inv = inverseSqrt(dot(d, d) + params.eps2);
        acc += (other.w * inv * inv * inv) * d;
    }
    let v = vec3(vel[3u * i], vel[3u * i + 1u], vel[3u * i + 2u]) + params.dt * acc;
    let p = me.xyz + params.dt * v;
    pos_out[i] = vec4(p, me.w);
    vel_out[3u * i] = v.x;
    vel_out[3u * i + 1u] = v.y;
    vel_out[3u * i + 2u] = v.z;
}
