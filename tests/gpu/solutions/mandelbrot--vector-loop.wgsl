// expect: passed
// A correct kernel in another style: the pixel from the workgroup and local
// ids, z as a vec2<i32> whose components are squared and shifted together,
// and a for loop that writes its count and returns at the escape (the
// fall-through writes max_iter). Same fixed-point roundings, in the same
// order, as the statement's loop, so the same counts.
struct Params {
    x0: i32,
    y0: i32,
    step: i32,
    rows: u32,
    cols: u32,
    max_iter: u32,
}

@group(0) @binding(0) var<storage, read_write> count: array<u32>;
@group(0) @binding(1) var<uniform> params: Params;

const WGS = vec3<u32>({{workgroupSize}});

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
) {
    let pixel = wid.xy * WGS.xy + lid.xy; // (col, row)
    if (any(pixel >= vec2(params.cols, params.rows))) {
        return;
    }
    let i = pixel.y * params.cols + pixel.x;
    let c = vec2(params.x0, params.y0) + vec2(1, -1) * vec2<i32>(pixel) * params.step;
    var z = vec2(0, 0);
    for (var n = 0u; n < params.max_iter; n++) {
        let sq = (z * z) >> vec2(12u); // (x², y²) in fixed point
        if (sq.x + sq.y > 16384) {
            count[i] = n;
            return;
        }
        let xy = (z.x * z.y) >> 12u;
        z = vec2(sq.x - sq.y, 2 * xy) + c;
    }
    count[i] = params.max_iter;
}
