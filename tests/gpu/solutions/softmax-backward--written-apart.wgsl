// expect: passed
// Softmax backward written apart from the reference: partials reduced with
// a tree whose stride grows (1, 2, 4, …), then dx written with the form
// y·dy − y·s.
struct Dims { rows: u32, cols: u32 }

@group(0) @binding(0) var<storage, read> y: array<f32>;
@group(0) @binding(1) var<storage, read> dy: array<f32>;
@group(0) @binding(2) var<storage, read_write> dx: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

const W = {{smemSize}}u;
var<workgroup> partial: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let i = lid.x;
    let base = wid.x * dims.cols;
    var acc = 0.0;
    for (var c = i; c < dims.cols; c += W) {
        acc += dy[base + c] * y[base + c];
    }
    partial[i] = acc;
    workgroupBarrier();
    for (var stride = 1u; stride < W; stride *= 2u) {
        if (i % (2u * stride) == 0u && i + stride < W) {
            partial[i] += partial[i + stride];
        }
        workgroupBarrier();
    }
    let s = partial[0];
    for (var c = i; c < dims.cols; c += W) {
        let yc = y[base + c];
        dx[base + c] = yc * dy[base + c] - yc * s;
    }
}
