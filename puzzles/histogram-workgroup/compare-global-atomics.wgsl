// Comparison kernel: one global atomicAdd per value, as in Histogram. Every
// increment of a popular bin waits for the others at the same address.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let i = global_id.x;
    if (i < arrayLength(&a)) {
        let bin = u32(floor(a[i]));
        atomicAdd(&bins[bin], 1u);
    }
}
