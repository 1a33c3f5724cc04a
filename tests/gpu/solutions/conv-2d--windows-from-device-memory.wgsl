// expect: over-budget in some cases
// message: per workgroup
// Wrong on purpose: the values are right, but every invocation reads its
// whole k × k window of `a` from device memory (and the filter), where a
// workgroup should load its tile and halo once. The budget lets small
// workgroups and small filters through, where the two counts are close
// (a 1 × 1 workgroup reads k² cells either way).
struct Dims {
    rows: u32,
    cols: u32,
    k: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> f: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let y = i32(global_id.y);
    let x = i32(global_id.x);
    if (y >= i32(dims.rows) || x >= i32(dims.cols)) {
        return;
    }
    let k = i32(dims.k);
    let r = (k - 1) / 2;
    var sum = 0.0;
    for (var i = 0; i < k; i++) {
        for (var j = 0; j < k; j++) {
            let yy = y + i - r;
            let xx = x + j - r;
            if (yy >= 0 && yy < i32(dims.rows) && xx >= 0 && xx < i32(dims.cols)) {
                sum += f[u32(i * k + j)] * a[u32(yy) * dims.cols + u32(xx)];
            }
        }
    }
    out[u32(y) * dims.cols + u32(x)] = sum;
}
