// expect: over-budget in some cases
// message: over budget: workgroup (0
// Right answer, wrong method: the sequential merge, run by invocation 0 of
// workgroup 0 alone, while every other invocation idles. It reads the two
// keys it compares at each of the na + nb steps, about 2 · (na + nb) reads
// in one workgroup: over the budget (2 · T + 96) wherever the arrays are
// longer than a few tiles, which is every case but the smallest. On a GPU
// it would also be slow: one invocation does all the work, one key after
// another, however many workgroups the dispatch has.
const wgs = vec3({{workgroupSize}});

struct Sizes {
    na: u32,
    nb: u32,
}

@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> src: array<u32>;
@group(0) @binding(4) var<uniform> sizes: Sizes;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    if (workgroup_id.x != 0u || local_id.x != 0u) {
        return;
    }
    var i = 0u;
    var j = 0u;
    for (var k = 0u; k < sizes.na + sizes.nb; k++) {
        if (j == sizes.nb || (i < sizes.na && a[i] <= b[j])) {
            out[k] = a[i];
            src[k] = i;
            i++;
        } else {
            out[k] = b[j];
            src[k] = sizes.na + j;
            j++;
        }
    }
}
