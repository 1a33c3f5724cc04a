// expect: over-budget in some cases
// message: per workgroup
// Wrong on purpose: the values are right, but each output sums the
// definition reading every sample from device memory: 2n reads an output,
// 2n² a row, where loading the row into workgroup memory once takes 2n (the
// budget allows twice that, 4n). It goes over from n = 4 on; at n = 2 the
// two counts meet (8 reads either way), so those cases pass. Besides the
// reads, it is the O(n²) sum the FFT avoids.
const PI = 3.14159265358979;

struct Dims {
    rows: u32,
    n: u32,
}

@group(0) @binding(0) var<storage, read> re: array<f32>;
@group(0) @binding(1) var<storage, read> im: array<f32>;
@group(0) @binding(2) var<storage, read_write> out_re: array<f32>;
@group(0) @binding(3) var<storage, read_write> out_im: array<f32>;
@group(0) @binding(4) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = dims.n;
    let base = workgroup_id.x * n;
    for (var k = local_id.x; k < n; k += n / 2u) {
        var sum = vec2(0.0, 0.0);
        for (var j = 0u; j < n; j++) {
            var r = i32((j * k) % n);
            if (r > i32(n / 2u)) {
                r -= i32(n);
            }
            let angle = -2.0 * PI * f32(r) / f32(n);
            let c = cos(angle);
            let s = sin(angle);
            let x = vec2(re[base + j], im[base + j]);
            sum += vec2(x.x * c - x.y * s, x.x * s + x.y * c);
        }
        out_re[base + k] = sum.x;
        out_im[base + k] = sum.y;
    }
}
