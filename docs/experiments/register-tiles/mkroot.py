# Builds an experiment root per variant: matmul-register with every case's
# workgroup count recomputed for RM4 x CN4 tiles per invocation, the variant
# as the reference, no comparison kernel and no target.
import re, shutil, sys, os
src, out, rm4, cn4, kernel = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
shutil.rmtree(out, ignore_errors=True)
shutil.copytree(os.path.join(src, 'puzzles'), os.path.join(out, 'puzzles'))
shutil.copytree(os.path.join(src, 'shaders'), os.path.join(out, 'shaders'))
shutil.copy(kernel, os.path.join(out, 'shaders', 'matmul-register.wgsl'))
p = os.path.join(out, 'puzzles/matmul-register/puzzle.toml')
s = open(p).read()
s = re.sub(r'(?m)^performance_target = .*\n', '', s)
s = re.sub(r'(?ms)^\[\[comparison\]\]\n.*?(?=^\[\[buffer\]\])', '', s)
os.remove(os.path.join(out, 'puzzles/matmul-register/compare-registers-only.wgsl'))
cd = lambda a, b: -(-a // b)
def fix(block):
    ws = re.search(r'workgroup_size = \[(\d+), (\d+), 1\]', block)
    d = re.search(r'uniforms.dims = \{ m = (\d+), n = (\d+), k = (\d+) \}', block)
    if not ws or not d:
        return block
    wx, wy = int(ws.group(1)), int(ws.group(2))
    m, n = int(d.group(1)), int(d.group(2))
    gx, gy = cd(n // 4, cn4 * wx), cd(m, 4 * rm4 * wy)
    return re.sub(r'workgroups = \[\d+, \d+, 1\]', f'workgroups = [{gx}, {gy}, 1]', block)
parts = re.split(r'(?m)^(?=\[\[case\]\])', s)
s = ''.join(fix(x) for x in parts)
s = s.replace('workgroups = ["=ceil_div(n4, wx)", "=ceil_div(m4, wy)", 1]', f'workgroups = ["=ceil_div(n4, {cn4} * wx)", "=ceil_div(m4, {rm4} * wy)", 1]')
open(p, 'w').write(s)
