#!/usr/bin/env python3
"""Writes recipes.json: the type llama.cpp's quantizer gives each tensor, per recipe, for a Llama shape
(TinyLlama 1.1B) and a Qwen2 shape (Qwen2 0.5B: tied embeddings, rows of 896 that K-quants cannot block).

Usage: recipes.py LLAMA_BIN_DIR WORK_DIR > recipes.json (see README.md).
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RECIPES = ["f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "q2_k", "q3_k_s", "q3_k_m", "q3_k_l",
           "q4_k_s", "q4_k_m", "q5_k_s", "q5_k_m", "q6_k"]
SHAPES = {
    "llama-1.1b": ["llama", 22, 2048, 32, 4, 5632, 32000, 0],
    "qwen2-0.5b": ["qwen2", 24, 896, 14, 2, 4864, 151936, 1],
}
LINE = re.compile(r"\[\s*\d+/\s*\d+\]\s+(\S+)\s+- \[([\d,\s]+)\], type =\s+(\S+), size =.*?(?:\((\S+)\))?\s*$")


def main(bin_dir, work):
    env = dict(os.environ, LD_LIBRARY_PATH=bin_dir)
    out = {}
    for label, shape in SHAPES.items():
        path = os.path.join(work, label + ".gguf")
        subprocess.run([sys.executable, os.path.join(HERE, "gguf_tool.py"), "shape"] + [str(v) for v in shape] + [path],
                       check=True)
        entry = {"shape": dict(zip(["architecture", "layers", "dim", "heads", "kv_heads", "hidden", "vocab", "tied"],
                                   shape)), "tensors": [], "recipes": {}}
        for recipe in RECIPES:
            text = subprocess.run([os.path.join(bin_dir, "llama-quantize"), "--dry-run", path, recipe.upper()],
                                  env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=True).stdout
            names, types = [], []
            for line in text.splitlines():
                m = LINE.search(line)
                if not m:
                    continue
                dims = [int(d) for d in m.group(2).split(",")]
                while len(dims) > 1 and dims[-1] == 1:
                    dims.pop()
                names.append([m.group(1), dims])
                types.append((m.group(4) or m.group(3)).lower())
            if not entry["tensors"]:
                entry["tensors"] = names
            assert names == entry["tensors"], recipe
            entry["recipes"][recipe] = " ".join(types)
        out[label] = entry
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main(*sys.argv[1:3])
