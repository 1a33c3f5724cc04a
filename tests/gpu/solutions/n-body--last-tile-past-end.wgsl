// expect: memory-error in some cases
// message: out-of-bounds read
// Wrong on purpose: every invocation loads pos[base + local_index] in every
// round, with no test against n. When n is not a multiple of wgs.x the last
// tile is partial and its slots past the last body read past the end of
// `pos`: an out-of-bounds read (on a GPU, robust access would hand back some
// other body, or zeros, and the kernel would seem right). Where wgs.x
// divides n every load is inside the buffer, so those cases pass.
const wgs = vec3({{workgroupSize}});

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
var<workgroup> tile: array<vec4<f32>, {{smemSize}}>; // one body per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_index) local_index: u32,
    @builtin(global_invocation_id) global_id: vec3<u32>,
) {
    let n = params.n;
    let i = global_id.x;
    let size = u32(wgs.x);
    // Invocations past the last body own none, but they still load their
    // share of every tile and reach every barrier: no early return.
    var me = vec4(0.0);
    if (i < n) {
        me = pos[i];
    }
    var acc = vec3(0.0);
    for (var base = 0u; base < n; base += size) {
        // The last tile may be partial: its slots past n get mass 0, a pad
        // that pulls nothing, instead of a read past the end of `pos`.
        let j = base + local_index;
        tile[local_index] = pos[j];
        workgroupBarrier(); // the whole tile is loaded
        for (var k = 0u; k < size; k++) {
            let other = tile[k];
            let d = other.xyz - me.xyz;
            // (|d|² + ε²)^(-3/2); ε² > 0, so a body's own term is 0 · d = 0.
            let inv = inverseSqrt(dot(d, d) + params.eps2);
            acc += (other.w * inv * inv * inv) * d;
        }
        workgroupBarrier(); // everyone is done with this tile
    }
    if (i < n) {
        // Semi-implicit Euler: the position moves with the new velocity.
        let v = vec3(vel[3u * i], vel[3u * i + 1u], vel[3u * i + 2u]) + params.dt * acc;
        let p = me.xyz + params.dt * v;
        pos_out[i] = vec4(p, me.w); // the mass is carried over
        vel_out[3u * i] = v.x;
        vel_out[3u * i + 1u] = v.y;
        vel_out[3u * i + 2u] = v.z;
    }
}
