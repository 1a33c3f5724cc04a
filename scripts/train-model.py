#!/usr/bin/python3
"""Train the language model of the capstone "Generate" (issue 47) and ship it as data.

The model is a tiny Llama-shaped, character-level, decoder-only transformer: RMSNorm with the
residual add fused before it, rotary position embedding in the half-split ("NeoX") pairing,
grouped-query attention, a SwiGLU MLP and an untied LM head. Its shape is exactly what the
chapter "Inside a language model" teaches, so that the page can run it with the student's own
kernels (rms-norm, rope, decode-attention, gemv-q8, top-k-sampling). docs/model.md describes it.

How to run (from the repository root; Debian 12):

    apt-get install -y python3-numpy libopenblas0-pthread bible-kjv bible-kjv-text
    /usr/bin/python3 scripts/train-model.py --grad-check        # check the backward pass
    OPENBLAS_NUM_THREADS=1 nice -n 10 /usr/bin/python3 scripts/train-model.py > train.log 2>&1

Dependencies: Debian's python3 and python3-numpy, and the `bible` program of package bible-kjv
reading the text of package bible-kjv-text (the King James Version). Nothing else: the forward
and backward passes, Adam and the schedule are written here in numpy. libopenblas0-pthread is
optional but makes numpy's matrix products about 30 times faster than Debian's reference BLAS;
with it, training (1600 steps) took 17 minutes on one shared core.

Deterministic given --seed (default 1234): the same seed, the same numpy and the same BLAS
(one thread) give the same weights, unless --max-seconds stops training early (it says so).
Training keeps its float weights in /tmp/lm-checkpoint.npz, so `--export-only` rewrites the
shipped files from them without training again.

Writes:
    models/generate/model.toml   dimensions, vocabulary, source, training figures, tensor table
    models/generate/model.bin    the tensors, little-endian, concatenated
    tests/data/generate-check.toml
        float64 logits and 40 sampled tokens computed from the quantised weights, which the
        Rust forward pass (crates/reference/src/lm) must reproduce.
"""

import argparse
import math
import os
import re
import subprocess
import sys
import time

import numpy as np

# ----------------------------------------------------------------------------- the shape

DIMS = dict(d_model=128, layers=4, heads=4, kv_heads=2, head_dim=32, ffn_hidden=384, context=256)
EPS = 1e-5
ROPE_THETA = 10000.0
Q8_BLOCK = 32
CHECKPOINT = "/tmp/lm-checkpoint.npz"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ----------------------------------------------------------------------------- the text


def load_text():
    """Every verse of the KJV, one verse a line, without book and chapter headings or verse
    numbers, as printed by the `bible` program (package bible-kjv)."""
    out = subprocess.run(
        ["bible", "-l10000", "gen1:1-rev22:21"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    verses = []
    for line in out.split("\n"):
        m = re.match(r"^\s+\d+ (.*)$", line)
        if m:
            verses.append(m.group(1).strip())
    text = "\n".join(verses) + "\n"
    # Keep a fixed, small alphabet: letters, space, newline and common punctuation.
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ \n.,;:!?'()-")
    return "".join(c for c in text if c in allowed)


# ----------------------------------------------------------------------------- parameters


def init_params(vocab, dims, rng, dtype):
    d, f, hd = dims["d_model"], dims["ffn_hidden"], dims["head_dim"]
    hq, hk, n_layers = dims["heads"] * hd, dims["kv_heads"] * hd, dims["layers"]

    def mat(rows, cols, std=0.02):
        return (rng.standard_normal((rows, cols)) * std).astype(dtype)

    deep = 0.02 / math.sqrt(2 * n_layers)
    p = {"embed": (rng.standard_normal((vocab, d)) * 0.5).astype(dtype)}
    for i in range(n_layers):
        p[f"layers.{i}.attn_norm"] = np.ones(d, dtype)
        p[f"layers.{i}.wq"] = mat(hq, d)
        p[f"layers.{i}.wk"] = mat(hk, d)
        p[f"layers.{i}.wv"] = mat(hk, d)
        p[f"layers.{i}.wo"] = mat(d, hq, deep)
        p[f"layers.{i}.ffn_norm"] = np.ones(d, dtype)
        p[f"layers.{i}.w_gate"] = mat(f, d)
        p[f"layers.{i}.w_up"] = mat(f, d)
        p[f"layers.{i}.w_down"] = mat(d, f, deep)
    p["final_norm"] = np.ones(d, dtype)
    p["lm_head"] = mat(vocab, d)
    return p


def rope_table(context, head_dim, dtype=np.float64):
    """cos and sin of pos·θ_i, θ_i = ROPE_THETA^(-2i/head_dim), as two (context, half) arrays."""
    half = head_dim // 2
    cos = np.empty((context, half))
    sin = np.empty((context, half))
    for pos in range(context):
        for i in range(half):
            angle = pos * ROPE_THETA ** (-2.0 * i / head_dim)
            cos[pos, i] = math.cos(angle)
            sin[pos, i] = math.sin(angle)
    return cos.astype(dtype), sin.astype(dtype)


# ----------------------------------------------------------------------------- training pass


def rms_fwd(h, g):
    r = 1.0 / np.sqrt(np.mean(h * h, axis=-1, keepdims=True) + EPS)
    return h * r * g, r


def rms_bwd(dy, h, g, r):
    a = dy * g
    dh = r * (a - h * (r * r) * np.mean(a * h, axis=-1, keepdims=True))
    dg = np.sum(dy * h * r, axis=tuple(range(dy.ndim - 1)))
    return dh, dg


def rope_fwd(x, cos, sin):
    """x: (B, heads, T, hd); cos, sin: (T, half). Pairs (i, i + half)."""
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


def rope_bwd(dy, cos, sin):
    half = dy.shape[-1] // 2
    d1, d2 = dy[..., :half], dy[..., half:]
    return np.concatenate([d1 * cos + d2 * sin, d2 * cos - d1 * sin], axis=-1)


def silu(x):
    return x / (1.0 + np.exp(-x))


def forward_backward(p, tokens, targets, dims, cos, sin, grads=True):
    """Mean cross-entropy (nats per character) of a batch (B, T), and its gradients."""
    B, T = tokens.shape
    d, H, KV, hd = dims["d_model"], dims["heads"], dims["kv_heads"], dims["head_dim"]
    group, scale = H // KV, 1.0 / math.sqrt(hd)
    cos, sin = cos[:T], sin[:T]
    mask = np.triu(np.full((T, T), -np.inf, dtype=p["embed"].dtype), 1)
    h = p["embed"][tokens]  # the residual stream: the embedding, as the first fused norm sees it
    saved = []
    for i in range(dims["layers"]):
        L = lambda n: p[f"layers.{i}.{n}"]  # noqa: E731
        n1, r1 = rms_fwd(h, L("attn_norm"))
        q = (n1 @ L("wq").T).reshape(B, T, H, hd).transpose(0, 2, 1, 3)
        k = (n1 @ L("wk").T).reshape(B, T, KV, hd).transpose(0, 2, 1, 3)
        v = (n1 @ L("wv").T).reshape(B, T, KV, hd).transpose(0, 2, 1, 3)
        qr, kr = rope_fwd(q, cos, sin), rope_fwd(k, cos, sin)
        ke, ve = np.repeat(kr, group, axis=1), np.repeat(v, group, axis=1)
        s = (qr @ ke.transpose(0, 1, 3, 2)) * scale + mask
        s = np.exp(s - s.max(axis=-1, keepdims=True))
        att = s / s.sum(axis=-1, keepdims=True)
        o = (att @ ve).transpose(0, 2, 1, 3).reshape(B, T, H * hd)
        h2 = h + o @ L("wo").T
        n2, r2 = rms_fwd(h2, L("ffn_norm"))
        gate, up = n2 @ L("w_gate").T, n2 @ L("w_up").T
        sg = 1.0 / (1.0 + np.exp(-gate))
        m = gate * sg * up
        h3 = h2 + m @ L("w_down").T
        saved.append((h, n1, r1, qr, ke, ve, att, o, h2, n2, r2, gate, up, sg, m))
        h = h3
    nf, rf = rms_fwd(h, p["final_norm"])
    logits = nf @ p["lm_head"].T
    logits = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(logits)
    prob = e / e.sum(axis=-1, keepdims=True)
    n = B * T
    flat = prob.reshape(n, -1)
    loss = -np.mean(np.log(flat[np.arange(n), targets.reshape(n)]))
    if not grads:
        return float(loss), None
    g = {}
    dlog = flat.copy()
    dlog[np.arange(n), targets.reshape(n)] -= 1.0
    dlog = (dlog / n).reshape(B, T, -1)
    g["lm_head"] = np.tensordot(dlog, nf, axes=([0, 1], [0, 1]))
    dh, g["final_norm"] = rms_bwd(dlog @ p["lm_head"], h, p["final_norm"], rf)
    for i in reversed(range(dims["layers"])):
        L = lambda n: p[f"layers.{i}.{n}"]  # noqa: E731
        hin, n1, r1, qr, ke, ve, att, o, h2, n2, r2, gate, up, sg, m = saved[i]
        # MLP: h3 = h2 + down(silu(gate) * up)
        g[f"layers.{i}.w_down"] = np.tensordot(dh, m, axes=([0, 1], [0, 1]))
        dm = dh @ L("w_down")
        dup = dm * gate * sg
        dgate = dm * up * sg * (1.0 + gate * (1.0 - sg))
        g[f"layers.{i}.w_up"] = np.tensordot(dup, n2, axes=([0, 1], [0, 1]))
        g[f"layers.{i}.w_gate"] = np.tensordot(dgate, n2, axes=([0, 1], [0, 1]))
        dn2 = dup @ L("w_up") + dgate @ L("w_gate")
        dh2, g[f"layers.{i}.ffn_norm"] = rms_bwd(dn2, h2, L("ffn_norm"), r2)
        dh2 = dh2 + dh
        # Attention: h2 = hin + wo · attention(rope(q), rope(k), v)
        g[f"layers.{i}.wo"] = np.tensordot(dh2, o, axes=([0, 1], [0, 1]))
        do = (dh2 @ L("wo")).reshape(B, T, H, hd).transpose(0, 2, 1, 3)
        datt = do @ ve.transpose(0, 1, 3, 2)
        dve = att.transpose(0, 1, 3, 2) @ do
        ds = att * (datt - np.sum(datt * att, axis=-1, keepdims=True)) * scale
        dqr = ds @ ke
        dke = ds.transpose(0, 1, 3, 2) @ qr
        dkr = dke.reshape(B, KV, group, T, hd).sum(axis=2)
        dv = dve.reshape(B, KV, group, T, hd).sum(axis=2)
        dq = rope_bwd(dqr, cos, sin).transpose(0, 2, 1, 3).reshape(B, T, H * hd)
        dk = rope_bwd(dkr, cos, sin).transpose(0, 2, 1, 3).reshape(B, T, KV * hd)
        dv = dv.transpose(0, 2, 1, 3).reshape(B, T, KV * hd)
        g[f"layers.{i}.wq"] = np.tensordot(dq, n1, axes=([0, 1], [0, 1]))
        g[f"layers.{i}.wk"] = np.tensordot(dk, n1, axes=([0, 1], [0, 1]))
        g[f"layers.{i}.wv"] = np.tensordot(dv, n1, axes=([0, 1], [0, 1]))
        dn1 = dq @ L("wq") + dk @ L("wk") + dv @ L("wv")
        dhin, g[f"layers.{i}.attn_norm"] = rms_bwd(dn1, hin, L("attn_norm"), r1)
        dh = dhin + dh2
    ge = np.zeros_like(p["embed"])
    np.add.at(ge, tokens.reshape(-1), dh.reshape(B * T, d))
    g["embed"] = ge
    return float(loss), g


def grad_check(seed):
    """Finite differences against the backward pass on a tiny configuration, in float64."""
    dims = dict(d_model=16, layers=2, heads=4, kv_heads=2, head_dim=4, ffn_hidden=24, context=8)
    rng = np.random.default_rng(seed)
    vocab = 7
    p = init_params(vocab, dims, rng, np.float64)
    for name in p:  # larger weights than at the start of training, so every path matters
        if name != "embed":
            p[name] = p[name] + rng.standard_normal(p[name].shape) * 0.3
    cos, sin = rope_table(dims["context"], dims["head_dim"])
    tokens = rng.integers(0, vocab, (2, 6))
    targets = rng.integers(0, vocab, (2, 6))
    _, g = forward_backward(p, tokens, targets, dims, cos, sin)
    worst = 0.0
    for name in sorted(p):
        flat = p[name].reshape(-1)
        for j in rng.choice(flat.size, min(6, flat.size), replace=False):
            old = flat[j]
            flat[j] = old + 1e-6
            up, _ = forward_backward(p, tokens, targets, dims, cos, sin, grads=False)
            flat[j] = old - 1e-6
            down, _ = forward_backward(p, tokens, targets, dims, cos, sin, grads=False)
            flat[j] = old
            numeric = (up - down) / 2e-6
            analytic = g[name].reshape(-1)[j]
            err = abs(numeric - analytic) / max(1e-6, abs(numeric) + abs(analytic))
            worst = max(worst, err)
            if err > 1e-5:
                print(f"MISMATCH {name}[{j}]: numeric {numeric:.9g} analytic {analytic:.9g}")
    print(f"gradient check: worst relative error {worst:.3g}")
    return worst < 1e-5


def train(args, text, vocab):
    dims = DIMS
    rng = np.random.default_rng(args.seed)
    ids = np.array([vocab.index(c) for c in text], dtype=np.int64)
    split = int(len(ids) * 0.95)
    train_ids, held_ids = ids[:split], ids[split:]
    p = init_params(len(vocab), dims, rng, np.float32)
    cos, sin = rope_table(dims["context"], dims["head_dim"], np.float32)
    m = {k: np.zeros_like(v) for k, v in p.items()}
    s = {k: np.zeros_like(v) for k, v in p.items()}
    B, T, steps = args.batch, args.seq, args.steps
    b1, b2 = 0.9, 0.95
    decay = {k for k in p if p[k].ndim == 2 and k != "embed"}
    start = time.time()
    losses = []

    def held_out_loss():
        hr = np.random.default_rng(args.seed + 1)
        total = 0.0
        for _ in range(args.eval_batches):
            at = hr.integers(0, len(held_ids) - T - 1, B)
            x = np.stack([held_ids[a : a + T] for a in at])
            y = np.stack([held_ids[a + 1 : a + T + 1] for a in at])
            total += forward_backward(p, x, y, dims, cos, sin, grads=False)[0]
        return total / args.eval_batches

    step = 0
    for step in range(1, steps + 1):
        warm = min(1.0, step / args.warmup)
        lr = args.lr * warm * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * step / steps)))
        at = rng.integers(0, len(train_ids) - T - 1, B)
        x = np.stack([train_ids[a : a + T] for a in at])
        y = np.stack([train_ids[a + 1 : a + T + 1] for a in at])
        loss, g = forward_backward(p, x, y, dims, cos, sin)
        losses.append(loss)
        norm = math.sqrt(sum(float(np.sum(v.astype(np.float64) ** 2)) for v in g.values()))
        clip = min(1.0, 1.0 / (norm + 1e-12))
        for k in p:
            gk = g[k] * clip
            m[k] = b1 * m[k] + (1 - b1) * gk
            s[k] = b2 * s[k] + (1 - b2) * gk * gk
            mh, sh = m[k] / (1 - b1**step), s[k] / (1 - b2**step)
            if k in decay:
                p[k] *= 1 - lr * args.weight_decay
            p[k] -= (lr * mh / (np.sqrt(sh) + 1e-8)).astype(np.float32)
        elapsed = time.time() - start
        if step % 25 == 0 or step == 1:
            recent = sum(losses[-25:]) / len(losses[-25:])
            print(f"step {step} loss {recent:.4f} lr {lr:.2e} |g| {norm:.3f} {elapsed:.0f}s",
                  flush=True)
        if step % 250 == 0:
            print(f"  held-out loss {held_out_loss():.4f}", flush=True)
        if elapsed > args.max_seconds:
            print(f"stopping at step {step}: time limit", flush=True)
            break
    seconds = time.time() - start
    train_loss = sum(losses[-50:]) / len(losses[-50:])
    held = held_out_loss()
    print(f"done: {step} steps, {seconds:.0f}s, train loss {train_loss:.4f}, held-out {held:.4f}")
    info = dict(steps=step, seconds=seconds, train_loss=train_loss, held_out_loss=held,
                batch=B, seq=T, lr=args.lr, seed=args.seed, train_chars=len(train_ids),
                held_out_chars=len(held_ids))
    np.savez(CHECKPOINT, **p, __info__=np.array(repr(info)))
    return p, info


# ----------------------------------------------------------------------------- quantising


def quantise(w):
    """gemv-q8's format: int8 q, one f32 scale = max|w|/127 per block of 32 columns, q rounded
    to nearest (ties to even). Returns (q int8 rows×cols, scales float32 rows×cols/32)."""
    rows, cols = w.shape
    blocks = w.astype(np.float64).reshape(rows, cols // Q8_BLOCK, Q8_BLOCK)
    scales = (np.abs(blocks).max(axis=-1) / 127.0).astype(np.float32)
    safe = np.where(scales == 0, 1.0, scales.astype(np.float64))[..., None]
    q = np.clip(np.rint(blocks / safe), -127, 127).astype(np.int8)
    q[scales == 0] = 0
    return q.reshape(rows, cols), scales


MATRICES = ["wq", "wk", "wv", "wo", "w_gate", "w_up", "w_down"]


def build_tensors(p, n_layers):
    """The shipped tensors in file order: (name, dtype, shape, little-endian bytes), and the
    dequantised float64 weights the check computes with."""
    out, deq = [], {}

    def f32(name, a):
        a = np.ascontiguousarray(a, dtype="<f4")
        out.append((name, "f32", list(a.shape), a.tobytes()))
        deq[name] = a.astype(np.float64)

    def q8(name, w):
        q, sc = quantise(w)
        rows, cols = q.shape
        # int8 bytes in row-major order are the u32 words, four to a word, lowest byte first.
        out.append((name, "u32", [rows, cols // 4], q.tobytes()))
        f32(name + ".scales", sc)
        deq[name] = (q.astype(np.float64).reshape(rows, cols // Q8_BLOCK, Q8_BLOCK)
                     * sc.astype(np.float64)[..., None])
        deq[name + ".q"] = q

    f32("embed", p["embed"])
    for i in range(n_layers):
        f32(f"layers.{i}.attn_norm", p[f"layers.{i}.attn_norm"])
        for mname in MATRICES[:4]:
            q8(f"layers.{i}.{mname}", p[f"layers.{i}.{mname}"])
        f32(f"layers.{i}.ffn_norm", p[f"layers.{i}.ffn_norm"])
        for mname in MATRICES[4:]:
            q8(f"layers.{i}.{mname}", p[f"layers.{i}.{mname}"])
    f32("final_norm", p["final_norm"])
    q8("lm_head", p["lm_head"])
    return out, deq


# ----------------------------------------------------------------------------- float64 check


class SplitMix64:
    """crates/values/src/rng.rs's SplitMix64, bit for bit."""

    MASK = (1 << 64) - 1

    def __init__(self, seed):
        self.state = seed & self.MASK

    def next_u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def uniform(self):
        """The top 24 bits over 2^24: in [0, 1) and exact as an f32 and an f64 alike."""
        return (self.next_u64() >> 40) / float(1 << 24)


def gemv(deq, name, x):
    """y[r] = Σ_b scale[r][b] · Σ_j q[r][32b + j] · x[32b + j], in float64."""
    q = deq[name + ".q"].astype(np.float64)
    rows, cols = q.shape
    sc = deq[name + ".scales"]
    partial = (q.reshape(rows, cols // Q8_BLOCK, Q8_BLOCK) * x.reshape(1, -1, Q8_BLOCK)).sum(-1)
    return (partial * sc).sum(-1)


class Float64Model:
    """One token at a time with a KV cache, as crates/reference/src/lm/forward.rs computes it."""

    def __init__(self, deq, dims):
        self.deq, self.dims = deq, dims
        hd, ctx = dims["head_dim"], dims["context"]
        half = hd // 2
        cos, sin = rope_table(ctx, hd)
        self.cos_sin = np.concatenate([cos, sin], axis=1)  # row pos: half cosines, half sines
        self.k = np.zeros((dims["layers"], dims["kv_heads"], ctx, hd))
        self.v = np.zeros((dims["layers"], dims["kv_heads"], ctx, hd))
        self.half = half

    def norm(self, residual, x, w):
        h = residual + x
        return h, h / math.sqrt(float(np.sum(h * h)) / h.size + EPS) * w

    def rope(self, v, pos):
        hd, half = self.dims["head_dim"], self.half
        c, s = self.cos_sin[pos, :half], self.cos_sin[pos, half:]
        v = v.reshape(-1, hd)
        x1, x2 = v[:, :half].copy(), v[:, half:].copy()
        return np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=1).reshape(-1)

    def step(self, token, pos):
        D, dq = self.dims, self.deq
        H, KV, hd = D["heads"], D["kv_heads"], D["head_dim"]
        residual = np.zeros(D["d_model"])
        x = dq["embed"][token]
        for i in range(D["layers"]):
            P = f"layers.{i}."
            residual, n1 = self.norm(residual, x, dq[P + "attn_norm"])
            q = self.rope(gemv(dq, P + "wq", n1), pos).reshape(H, hd)
            k = self.rope(gemv(dq, P + "wk", n1), pos).reshape(KV, hd)
            v = gemv(dq, P + "wv", n1).reshape(KV, hd)
            self.k[i, :, pos], self.v[i, :, pos] = k, v
            att = np.empty((H, hd))
            for h in range(H):
                g = h // (H // KV)
                s = self.k[i, g, : pos + 1] @ q[h] / math.sqrt(hd)
                e = np.exp(s - s.max())
                att[h] = (e @ self.v[i, g, : pos + 1]) / e.sum()
            a = gemv(dq, P + "wo", att.reshape(-1))
            residual, n2 = self.norm(residual, a, dq[P + "ffn_norm"])
            gate, up = gemv(dq, P + "w_gate", n2), gemv(dq, P + "w_up", n2)
            x = gemv(dq, P + "w_down", gate / (1.0 + np.exp(-gate)) * up)
        _, n = self.norm(residual, x, dq["final_norm"])
        return gemv(dq, "lm_head", n)


def top_k_sample(logits, k, temperature, u):
    """top-k-sampling's rule: the k largest (value descending, index ascending), softmax over
    them at the temperature, the first whose cumulative probability exceeds u, else the last."""
    order = sorted(range(len(logits)), key=lambda c: (-logits[c], c))[:k]
    top = logits[order[0]]
    e = [math.exp((logits[c] - top) / temperature) for c in order]
    total = sum(e)
    cumulative = 0.0
    for j, c in enumerate(order):
        cumulative += e[j] / total
        if cumulative > u:
            return c
    return order[-1]


def generate(deq, dims, prompt_ids, n, k, temperature, seed):
    model, rng = Float64Model(deq, dims), SplitMix64(seed)
    rows = [model.step(t, pos) for pos, t in enumerate(prompt_ids)]
    logits, out = rows[-1], []
    for _ in range(n):
        token = top_k_sample(list(logits), k, temperature, rng.uniform())
        out.append(token)
        if len(out) < n:
            logits = model.step(token, len(prompt_ids) + len(out) - 1)
    return rows, out


# ----------------------------------------------------------------------------- writing


def toml_string(s):
    esc = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t"}
    return '"' + "".join(esc.get(c, c) for c in s) + '"'


def toml_floats(values):
    return "[" + ", ".join(repr(float(v)) for v in values) + "]"


def write_files(p, info, vocab):
    tensors, deq = build_tensors(p, DIMS["layers"])
    folder = os.path.join(ROOT, "models", "generate")
    os.makedirs(folder, exist_ok=True)
    lines = [
        "# The capstone's language model (issue 47): written by scripts/train-model.py, described",
        "# in docs/model.md. A character-level, Llama-shaped decoder; every matrix in gemv-q8's",
        "# format (u32 words of four int8 weights, lowest byte first, rows = outputs, and one f32",
        "# scale per block of 32 columns). model.bin holds the tensors below, little-endian.",
        "format = 1",
        "",
        "[dims]",
    ]
    lines += [f"{k} = {v}" for k, v in DIMS.items()]
    lines += [f"vocab = {len(vocab)}", "", "[numbers]", f"eps = {EPS!r}",
              f"rope_theta = {ROPE_THETA!r}", f"q8_block = {Q8_BLOCK}", "",
              "[tokenizer]", "# Token id = index in this string (one character a token).",
              f"vocabulary = {toml_string(''.join(vocab))}", "",
              "[source]",
              'text = "The King James Version of the Bible (1611), every verse, one a line"',
              'package = "Debian bible-kjv-text (read with the bible program of bible-kjv)"',
              'licence = "Public domain in the United States and most countries (its copyright, '
              'if any, expired long ago); in the United Kingdom its rights belong to the Crown, '
              'granted by letters patent (the Crown patent). See docs/model.md"',
              "", "[training]"]
    for key in ["steps", "seconds", "train_loss", "held_out_loss", "batch", "seq", "lr", "seed",
                "train_chars", "held_out_chars"]:
        v = info[key]
        lines.append(f"{key} = {round(v, 4) if isinstance(v, float) else v}")
    offset, blob = 0, bytearray()
    for name, dtype, shape, data in tensors:
        lines += ["", "[[tensor]]", f"name = {toml_string(name)}", f'dtype = "{dtype}"',
                  f"shape = {shape}", f"offset = {offset}", f"bytes = {len(data)}"]
        blob += data
        offset += len(data)
    with open(os.path.join(folder, "model.toml"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(folder, "model.bin"), "wb") as f:
        f.write(bytes(blob))
    print(f"model.bin: {len(blob)} bytes, {len(tensors)} tensors")

    prompt = "In the beginning"
    ids = [vocab.index(c) for c in prompt]
    k, temperature, seed, n = 8, float(np.float32(0.8)), 7, 40
    rows, out = generate(deq, DIMS, ids, n, k, temperature, seed)
    text = "".join(vocab[t] for t in out)
    print(f"sample: {prompt}{text!r}")
    check = [
        "# Written by scripts/train-model.py from models/generate/model.{toml,bin}: the float64",
        "# forward pass of the quantised model (weights dequantised exactly), which",
        "# crates/reference/src/lm must reproduce (logits within 1e-9 relative, tokens identical).",
        f"prompt = {toml_string(prompt)}",
        f"prompt_ids = {ids}",
        "# logits after prompt token 0, 1 and 2: the first 8 values of each row",
    ]
    for pos in range(3):
        check.append(f"logits_{pos}_first8 = {toml_floats(rows[pos][:8])}")
    check += [f"# every logit after the last prompt token (position {len(ids) - 1})",
              f"logits_last = {toml_floats(rows[-1])}", "",
              "[generation]",
              "# u = (SplitMix64(seed).next_u64() >> 40) / 2^24, one draw per generated token;",
              "# temperature is 0.8 rounded to f32, as the top-k-sampling puzzle reads it",
              f"k = {k}", f"temperature = {temperature!r}", f"seed = {seed}", f"tokens = {n}",
              f"ids = {out}", f"text = {toml_string(text)}"]
    path = os.path.join(ROOT, "tests", "data", "generate-check.toml")
    with open(path, "w") as f:
        f.write("\n".join(check) + "\n")
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--grad-check", action="store_true", help="check the backward pass, exit")
    ap.add_argument("--export-only", action="store_true", help=f"rewrite files from {CHECKPOINT}")
    ap.add_argument("--steps", type=int, default=1600)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--seq", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--warmup", type=int, default=50)
    ap.add_argument("--weight-decay", type=float, default=0.1)
    ap.add_argument("--eval-batches", type=int, default=8)
    ap.add_argument("--max-seconds", type=float, default=1680.0)
    args = ap.parse_args()
    if args.grad_check:
        sys.exit(0 if grad_check(args.seed) else 1)
    text = load_text()
    vocab = sorted(set(text))
    assert len(vocab) <= 96
    print(f"text: {len(text)} characters, vocabulary of {len(vocab)}: {''.join(vocab)!r}")
    if args.export_only:
        z = np.load(CHECKPOINT)
        p = {k: z[k] for k in z.files if k != "__info__"}
        info = eval(str(z["__info__"]))  # our own repr of a dict of numbers
    else:
        p, info = train(args, text, vocab)
    write_files(p, info, vocab)


if __name__ == "__main__":
    main()
