// Scatter or Gather: the gather. Invocation i takes the output's point of
// view: it reads the len(b) inputs out[i] depends on and writes out[i] once.
// No other invocation writes out[i], so there is nothing to synchronise;
// neighbouring invocations read overlapping windows of `a`, which caches
// serve to all of them at once.
@group(0) @binding(0) var<storage, read> a: array<i32>;
@group(0) @binding(1) var<storage, read> b: array<i32>;
@group(0) @binding(2) var<storage, read_write> out: array<i32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let n = arrayLength(&a);
    let i = global_id.x;
    // The last workgroup may have more invocations than elements left.
    if (i >= n) {
        return;
    }
    // Taps whose input lies past the end of `a` count as zero: stop before them.
    let taps = min(arrayLength(&b), n - i);
    var sum: i32 = 0;
    for (var j = 0u; j < taps; j++) {
        sum += a[i + j] * b[j];
    }
    out[i] = sum;
}
