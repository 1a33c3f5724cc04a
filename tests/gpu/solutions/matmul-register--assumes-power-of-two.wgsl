// expect: failed
// Wrong on purpose: splits the index of b's tile into row and vec4 column with a shift and a mask,
// `>> countTrailingZeros(TX)` and `& (TX - 1)`, as for a's tile with BK = 32; but TX = wgs.x
// is a power of two only in some cases. In "edge: sizes that are not powers of two" (3 × 3)
// b_tile[e] gets row e, vec4 column `e & 2` instead of row e / 3, column e % 3, so the products
// use the wrong values of b.
const wgs = vec3({{workgroupSize}});
const TX = u32(wgs.x);
const TY = u32(wgs.y);
const BK = 32u;
const ROWS = 4u * TY;   // rows of out per workgroup
const COLS4 = TX;       // vec4 columns of out per workgroup

struct Dims {
    m: u32, // rows of a and out (a multiple of 4)
    n: u32, // columns of b and out (a multiple of 4)
    k: u32, // columns of a, rows of b
}

@group(0) @binding(0) var<storage, read> a: array<f32>;               // m × k, row-major
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;         // k × n floats, 4 per element
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>; // m × n floats, 4 per element
@group(0) @binding(3) var<uniform> dims: Dims;

// a_tile[kk * TY + r4]: rows 4·r4 … 4·r4 + 3 of the workgroup's rows, column k0 + kk.
var<workgroup> a_tile: array<vec4<f32>, BK * TY>;
// b_tile[kk * TX + c4]: vec4 column c4 of the workgroup's columns, row k0 + kk.
var<workgroup> b_tile: array<vec4<f32>, BK * TX>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n4 = dims.n / 4u;
    let t = lid.y * TX + lid.x;
    let threads = TX * TY;
    let row0 = wid.y * ROWS;
    let col0 = wid.x * COLS4;
    var acc = array<vec4<f32>, 4>(vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));
    for (var k0 = 0u; k0 < dims.k; k0 += BK) {
        for (var e = t; e < BK * TY; e += threads) {
            let kk = e & (BK - 1u);
            let r4 = e >> 5u;
            let r = row0 + 4u * r4;
            let c = k0 + kk;
            var v = vec4(0.0);
            if (c < dims.k && r < dims.m) {
                v = vec4(a[r * dims.k + c], a[(r + 1u) * dims.k + c], a[(r + 2u) * dims.k + c], a[(r + 3u) * dims.k + c]);
            }
            a_tile[kk * TY + r4] = v;
        }
        for (var e = t; e < BK * TX; e += threads) {
            let kk = e >> countTrailingZeros(TX);
            let c4 = e & (TX - 1u);
            let r = k0 + kk;
            var v = vec4(0.0);
            if (r < dims.k && col0 + c4 < n4) {
                v = b[r * n4 + col0 + c4];
            }
            b_tile[e] = v;
        }
        workgroupBarrier();
        for (var kk = 0u; kk < BK; kk++) {
            let a4 = a_tile[kk * TY + lid.y];
            let b4 = b_tile[kk * TX + lid.x];
            acc[0] += a4.x * b4;
            acc[1] += a4.y * b4;
            acc[2] += a4.z * b4;
            acc[3] += a4.w * b4;
        }
        workgroupBarrier();
    }
    let row = row0 + 4u * lid.y;
    let col = col0 + lid.x;
    if (row < dims.m && col < n4) {
        for (var i = 0u; i < 4u; i++) {
            out[(row + i) * n4 + col] = acc[i];
        }
    }
}
