// expect: failed
// Wrong on purpose: dx = y · dy, the diagonal part of the Jacobian alone. The
// softmax's Jacobian is diag(y) - y yᵀ, and this forgets the second term,
// -y · (yᵀ dy): every output is off by y[j] · s, where s is the row's dot
// product of dy and y. No reduction at all, so it is quick and wrong on every
// case whose rows have s ≠ 0 (all of them, as it happens).
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> y: array<f32>;
@group(0) @binding(1) var<storage, read> dy: array<f32>;
@group(0) @binding(2) var<storage, read_write> dx: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let cols = dims.cols;
    let base = workgroup_id.x * cols;
    let parts = min(W, cols);

    for (var c = i; c < cols; c += W) {
        dx[base + c] = y[base + c] * dy[base + c];
    }
}
