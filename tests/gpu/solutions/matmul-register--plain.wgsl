// expect: passed
// Each invocation keeps a 4 × 4 block of out in registers; the workgroup stages slices of a and b
// (BK deep along k, zero-filled past the edges) in workgroup memory. Written from the statement alone.
// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Dims {
    m: u32, // rows of a and out (a multiple of 4)
    n: u32, // columns of b and out (a multiple of 4)
    k: u32, // columns of a, rows of b
}

@group(0) @binding(0) var<storage, read> a: array<f32>;            // m × k, row-major
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;      // k × n floats, row-major, 4 per element
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>; // m × n floats, row-major, 4 per element
@group(0) @binding(3) var<uniform> dims: Dims;

const TX = u32(wgs.x);
const TY = u32(wgs.y);
const BK = 16u; // depth of a slice along k

// a's slice, k-major: a_tile[kk * TY + r4] holds rows 4·r4 … 4·r4 + 3 of the workgroup at column kk.
var<workgroup> a_tile: array<vec4<f32>, BK * TY>;
// b's slice: b_tile[kk * TX + c4] is row kk of the slice at the workgroup's vec4 column c4.
var<workgroup> b_tile: array<vec4<f32>, BK * TX>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let x = global_id.x; // block column: columns 4x … 4x + 3
    let y = global_id.y; // block row: rows 4y … 4y + 3
    let lx = local_id.x;
    let ly = local_id.y;
    let tid = ly * TX + lx;
    let nthreads = TX * TY;
    let n4 = dims.n / 4u;
    let m4 = dims.m / 4u;
    let row4_0 = workgroup_id.y * TY; // first block row of this workgroup
    let col4_0 = workgroup_id.x * TX; // first vec4 column of this workgroup

    var acc: array<vec4<f32>, 4>;
    for (var i = 0u; i < 4u; i++) {
        acc[i] = vec4<f32>(0.0);
    }

    for (var k0 = 0u; k0 < dims.k; k0 += BK) {
        // Copy a's slice: TY groups of four rows, BK columns; kk runs fastest so that
        // neighbouring invocations read neighbouring floats of a row.
        for (var e = tid; e < BK * TY; e += nthreads) {
            let r4 = e / BK;
            let kk = e % BK;
            let gr4 = row4_0 + r4;
            let gk = k0 + kk;
            var v = vec4<f32>(0.0);
            if (gr4 < m4 && gk < dims.k) {
                let base = 4u * gr4 * dims.k + gk;
                v = vec4<f32>(a[base], a[base + dims.k], a[base + 2u * dims.k], a[base + 3u * dims.k]);
            }
            a_tile[kk * TY + r4] = v;
        }
        // Copy b's slice: BK rows, TX vec4 columns.
        for (var e = tid; e < BK * TX; e += nthreads) {
            let kk = e / TX;
            let c4 = e % TX;
            let gk = k0 + kk;
            let gc4 = col4_0 + c4;
            var v = vec4<f32>(0.0);
            if (gk < dims.k && gc4 < n4) {
                v = b[gk * n4 + gc4];
            }
            b_tile[e] = v;
        }
        workgroupBarrier();

        // 16 multiply-adds per step, from one vec4 of each tile.
        for (var kk = 0u; kk < BK; kk++) {
            let a4 = a_tile[kk * TY + ly];
            let b4 = b_tile[kk * TX + lx];
            acc[0] += a4.x * b4;
            acc[1] += a4.y * b4;
            acc[2] += a4.z * b4;
            acc[3] += a4.w * b4;
        }
        workgroupBarrier();
    }

    if (x < n4 && y < m4) {
        for (var i = 0u; i < 4u; i++) {
            out[(4u * y + i) * n4 + x] = acc[i];
        }
    }
}
