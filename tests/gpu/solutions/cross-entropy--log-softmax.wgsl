// expect: passed
// A correct kernel written another way, as log_softmax is: it forms the
// log-sum-exp lse = m + log(S) once and takes loss = lse - z[label] and
// p_c = exp(z[c] - lse), with no division. lse carries log's error and the
// rounding of m + log(S) into every p_c, relatively: the tolerance's
// derivation in puzzle.toml covers it (about 1.3e-5 · p against 2e-5). The
// reductions are folded serially by invocation 0 and shared with
// workgroupUniformLoad, instead of a tree in smem.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations per workgroup: the stride along the row

struct Dims {
    rows: u32, // rows of z and grad; elements of labels and loss
    cols: u32, // columns of z and grad: the classes
}

@group(0) @binding(0) var<storage, read> z: array<f32>;            // rows × cols logits, row-major
@group(0) @binding(1) var<storage, read> labels: array<u32>;       // rows: each row's class, < cols
@group(0) @binding(2) var<storage, read_write> loss: array<f32>;   // rows
@group(0) @binding(3) var<storage, read_write> grad: array<f32>;   // rows × cols, row-major
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial result per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let cols = dims.cols;
    let base = row * cols; // the row's first element

    // Invocation 0 folds the row alone: the maximum, then the sum.
    if (i == 0u) {
        var m = z[base];
        for (var c = 1u; c < cols; c++) {
            m = max(m, z[base + c]);
        }
        var s = 0.0;
        for (var c = 0u; c < cols; c++) {
            s += exp(z[base + c] - m);
        }
        smem[0] = m + log(s); // the log-sum-exp
    }
    let lse = workgroupUniformLoad(&smem[0]);
    let label = labels[row];
    if (i == 0u) {
        loss[row] = lse - z[base + label];
    }
    for (var c = i; c < cols; c += W) {
        let p = exp(z[base + c] - lse);
        grad[base + c] = select(p, p - 1.0, c == label);
    }
}
