#!/usr/bin/env python3
"""Small GGUF tool for making the quantization fixtures (standard library only; see README.md here).

  gguf_tool.py digest FILE             JSON: {tensor name: [ggml type id, sha256 of its data]}
  gguf_tool.py shape ARCH LAYERS DIM HEADS KV HIDDEN VOCAB TIED OUT
                                       a GGUF holding only the header of a model of that shape (its data
                                       section left as a hole): enough for llama-quantize --dry-run
"""
import hashlib
import json
import os
import struct
import sys

SIZES = {0: (1, 4), 1: (1, 2), 30: (1, 2), 2: (32, 18), 3: (32, 20), 6: (32, 22), 7: (32, 24), 8: (32, 34),
         10: (256, 84), 11: (256, 110), 12: (256, 144), 13: (256, 176), 14: (256, 210)}
SCALAR = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}


def read(path):
    data = open(path, "rb").read()
    pos = 0

    def take(fmt):
        nonlocal pos
        values = struct.unpack_from("<" + fmt, data, pos)
        pos += struct.calcsize("<" + fmt)
        return values[0]

    def string():
        nonlocal pos
        n = take("Q")
        s = data[pos:pos + n]
        pos += n
        return s.decode()

    def value(t):
        if t == 8:
            return string()
        if t == 9:
            et, n = take("I"), take("Q")
            return [value(et) for _ in range(n)]
        return take(SCALAR[t])

    assert take("I") == 0x46554747
    take("I")
    n_tensors, n_kv = take("Q"), take("Q")
    meta = {}
    for _ in range(n_kv):
        k = string()
        meta[k] = value(take("I"))
    tensors = []
    for _ in range(n_tensors):
        name = string()
        dims = [take("Q") for _ in range(take("I"))]
        tensors.append((name, dims, take("I"), take("Q")))
    align = meta.get("general.alignment", 32)
    start = (pos + align - 1) // align * align
    return data, meta, tensors, start


def nbytes(t, dims):
    block, size = SIZES[t]
    n = dims[0] // block * size
    for d in dims[1:]:
        n *= d
    return n


def digest(path):
    data, _, tensors, start = read(path)
    out = {}
    for name, dims, t, off in tensors:
        chunk = data[start + off:start + off + nbytes(t, dims)]
        out[name] = [t, hashlib.sha256(chunk).hexdigest()]
    print(json.dumps(out, indent=1, sort_keys=True))


def shape(arch, layers, dim, heads, kv, hidden, vocab, tied, out):
    layers, dim, heads, kv, hidden, vocab, tied = int(layers), int(dim), int(heads), int(kv), int(hidden), int(vocab), tied == "1"
    head_dim = dim // heads
    tensors = [("token_embd.weight", [dim, vocab]), ("output_norm.weight", [dim])]
    if not tied:
        tensors.append(("output.weight", [dim, vocab]))
    for l in range(layers):
        p = f"blk.{l}."
        tensors += [(p + "attn_norm.weight", [dim]), (p + "attn_q.weight", [dim, dim]),
                    (p + "attn_k.weight", [dim, kv * head_dim]), (p + "attn_v.weight", [dim, kv * head_dim]),
                    (p + "attn_output.weight", [dim, dim]), (p + "ffn_norm.weight", [dim]),
                    (p + "ffn_gate.weight", [dim, hidden]), (p + "ffn_up.weight", [dim, hidden]),
                    (p + "ffn_down.weight", [hidden, dim])]
        if arch == "qwen2":
            tensors += [(p + "attn_q.bias", [dim]), (p + "attn_k.bias", [kv * head_dim]), (p + "attn_v.bias", [kv * head_dim])]

    def s(x):
        b = x.encode()
        return struct.pack("<Q", len(b)) + b

    kvs = [("general.architecture", 8, arch), (f"{arch}.block_count", 4, layers), (f"{arch}.context_length", 4, 2048),
           (f"{arch}.embedding_length", 4, dim), (f"{arch}.feed_forward_length", 4, hidden),
           (f"{arch}.attention.head_count", 4, heads), (f"{arch}.attention.head_count_kv", 4, kv),
           (f"{arch}.attention.layer_norm_rms_epsilon", 6, 1e-6), (f"{arch}.rope.freq_base", 6, 10000.0),
           ("general.file_type", 4, 0)]
    head = struct.pack("<IIQQ", 0x46554747, 3, len(tensors), len(kvs))
    for k, t, v in kvs:
        head += s(k) + struct.pack("<I", t) + (s(v) if t == 8 else struct.pack("<" + SCALAR[t], v))
    off = 0
    for name, dims in tensors:
        head += s(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims)
        head += struct.pack("<IQ", 0, off)
        n = 4
        for d in dims:
            n *= d
        off = (off + n + 31) // 32 * 32
    head += b"\0" * ((32 - len(head) % 32) % 32)
    with open(out, "wb") as f:
        f.write(head)
        f.truncate(len(head) + off)


if __name__ == "__main__":
    if sys.argv[1] == "digest":
        digest(sys.argv[2])
    elif sys.argv[1] == "shape":
        shape(*sys.argv[2:])
    else:
        sys.exit(__doc__)
