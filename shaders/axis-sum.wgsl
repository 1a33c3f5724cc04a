// Axis Sum: one workgroup per row, a tree reduction in workgroup memory.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

const wgs = vec3({{workgroupSize}});
const twg = vec3({{totalWorkgroups}});

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let rows = u32(twg.y);
    let cols = arrayLength(&a) / rows;
    let row = workgroup_id.y;
    let col = local_id.x;
    smem[col] = select(0.0, a[min(row * cols + col, arrayLength(&a) - 1u)], col < cols);
    workgroupBarrier();
    for (var stride = 1u; stride < u32(wgs.x); stride *= 2u) {
        if (col % (2u * stride) == 0u && col + stride < u32(wgs.x)) {
            smem[col] += smem[col + stride];
        }
        workgroupBarrier();
    }
    if (col == 0u && row < rows) {
        out[row] = smem[0];
    }
}
