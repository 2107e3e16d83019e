#!/usr/bin/env python3
"""transformers as the reference for the CUDA path (run by packaging/cuda-check.sh on a GPU machine).

1. Random-weight Llama, Qwen2 and GPT-2 models made with transformers (save_pretrained, safetensors, a
   byte-level BPE tokenizer.json): transformers' greedy generate on CUDA in float32 against
   `swb generate --device cuda --prompt-ids ... --trace`: the same 64 tokens, and each step's top logits
   within 1e-3.
2. transformers' logits processors (temperature, top_k, top_p, typical, epsilon, eta, min_p,
   repetition_penalty, no_repeat_ngram) on logits rows against `swb sample`: the same surviving sets.
3. Speed on a 1.1B Llama-shaped BF16 model: `swb bench decode --device cuda` (prefill 512, decode) beside
   transformers' greedy generate on the same model and dtype, and a device-to-device copy for the bandwidth.

Writes one JSON object (--out). Needs torch with CUDA, transformers and tokenizers; no network.
"""
import argparse, json, os, subprocess, time

import torch
import transformers
from tokenizers import Tokenizer, models, pre_tokenizers, decoders


def byte_level_tokenizer(vocab_size, path):
    # GPT-2's byte-to-unicode alphabet as the first 256 tokens, then filler tokens; no merges.
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    vocab = {chr(c): i for i, c in enumerate(cs)}
    for i in range(256, vocab_size):
        vocab[f"<extra_{i}>"] = i
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.save(path)


def make_model(kind, folder, seed):
    torch.manual_seed(seed)
    common = dict(vocab_size=512, torch_dtype=torch.float32)
    if kind == "llama":
        config = transformers.LlamaConfig(hidden_size=256, intermediate_size=512, num_hidden_layers=2,
                                          num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256,
                                          **common)
        model = transformers.LlamaForCausalLM(config)
    elif kind == "qwen2":
        config = transformers.Qwen2Config(hidden_size=256, intermediate_size=512, num_hidden_layers=2,
                                          num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256,
                                          tie_word_embeddings=True, **common)
        model = transformers.Qwen2ForCausalLM(config)
    else:
        config = transformers.GPT2Config(n_embd=256, n_layer=2, n_head=4, n_positions=256, **common)
        model = transformers.GPT2LMHeadModel(config)
    # Default inits are tiny: widen them so the distributions are not flat.
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() >= 2:
                p.normal_(0.0, 0.08)
    model.save_pretrained(folder, safe_serialization=True)
    byte_level_tokenizer(512, os.path.join(folder, "tokenizer.json"))
    return model


def check_greedy(swb, work, kind):
    folder = os.path.join(work, kind)
    model = make_model(kind, folder, 7).to("cuda").eval()
    prompt = [5, 77, 300, 12, 9, 401, 33, 250]
    with torch.no_grad():
        out = model.generate(torch.tensor([prompt], device="cuda"), max_new_tokens=64, do_sample=False,
                             output_logits=True, return_dict_in_generate=True, pad_token_id=0, eos_token_id=None)
    ref_tokens = out.sequences[0, len(prompt):].tolist()
    ref_logits = [l[0].float().cpu() for l in out.logits]
    trace = os.path.join(work, f"{kind}.jsonl")
    run = subprocess.run([swb, "generate", "--model", folder, "--prompt-ids", " ".join(map(str, prompt)),
                          "--strategy", "greedy", "--max-tokens", "64", "--device", "cuda", "--trace", trace,
                          "--json"], capture_output=True, text=True)
    if run.returncode != 0:
        return {"model": kind, "error": run.stderr.strip()}
    steps = [json.loads(line) for line in open(trace)]
    ours = [s["chosen"] for s in steps]
    worst = 0.0
    for s, ref in zip(steps, ref_logits):
        for c in s["top"][:16]:
            worst = max(worst, abs(c["logit"] - float(ref[c["id"]])))
    same = ours == ref_tokens[:len(ours)] and len(ours) == 64
    return {"model": kind, "same_greedy_tokens": same, "steps": len(ours), "max_abs_logit_diff_top16": worst,
            "ok": same and worst <= 1e-3}


def check_processors(swb, work):
    g = torch.Generator().manual_seed(3)
    rows = [torch.randn(1000, generator=g) * s for s in (0.5, 2.0, 6.0)]
    cases = [("temperature", transformers.TemperatureLogitsWarper(0.7), {"type": "temperature", "value": 0.7}),
             ("top_k", transformers.TopKLogitsWarper(40), {"type": "top_k", "k": 40}),
             ("top_p", transformers.TopPLogitsWarper(0.9), {"type": "top_p", "p": 0.9}),
             ("typical", transformers.TypicalLogitsWarper(0.9), {"type": "typical", "p": 0.9}),
             ("epsilon", transformers.EpsilonLogitsWarper(3e-4), {"type": "epsilon", "epsilon": 3e-4}),
             ("eta", transformers.EtaLogitsWarper(3e-4, device="cpu"), {"type": "eta", "epsilon": 3e-4}),
             ("min_p", transformers.MinPLogitsWarper(0.05), {"type": "min_p", "p": 0.05}),
             # With a history: repetition penalty then top_k (so that it changes the set), and a banned 2-gram.
             ("repetition_penalty", [transformers.RepetitionPenaltyLogitsProcessor(1.3), transformers.TopKLogitsWarper(20)],
              [{"type": "repetition_penalty", "penalty": 1.3}, {"type": "top_k", "k": 20}]),
             ("no_repeat_ngram", transformers.NoRepeatNGramLogitsProcessor(2), {"type": "no_repeat_ngram", "n": 2})]
    history = [5, 9, 17, 300, 5]
    results = []
    for name, processor, sampler in cases:
        processors = processor if isinstance(processor, list) else [processor]
        samplers = sampler if isinstance(sampler, list) else [sampler]
        for i, row in enumerate(rows):
            # Scores as transformers gives them: the row's top id among the history, so penalties bite.
            row = row.clone()
            row[history] = row.max() + torch.arange(len(history), dtype=row.dtype)
            scores = row[None].clone()
            for p in processors:
                scores = p(torch.tensor([history]), scores)
            kept = scores[0] > -float("inf")
            path = os.path.join(work, f"logits-{name}-{i}.json")
            json.dump({"logits": row.tolist()}, open(path, "w"))
            run = subprocess.run([swb, "sample", "--logits", path, "--history", " ".join(map(str, history)),
                                  "--strategy", json.dumps({"samplers": samplers + [{"type": "dist"}]})],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                results.append({"processor": name, "row": i, "error": run.stderr.strip()})
                continue
            ours = {c["id"] for c in json.loads(run.stdout)["final"]}
            theirs = set(torch.nonzero(kept).flatten().tolist())
            results.append({"processor": name, "row": i, "transformers_kept": len(theirs), "ours_kept": len(ours),
                            "ok": ours == theirs})
    return results


def check_speed(swb, work):
    path = os.path.join(work, "llama1b-bf16.gguf")
    subprocess.run([swb, "bench", "decode", "--write-random-model", path, "--random-shape",
                    "2048,16,32,8192,32000,4096", "--kv-heads", "8", "--weight-type", "bf16"], check=True,
                   capture_output=True)
    ours = {}
    for extra in ([], ["--prompt-tokens", "512", "--tokens", "8"]):
        run = subprocess.run([swb, "bench", "decode", "--model", path, "--device", "cuda", "--dtype", "bf16",
                              "--tokens", "128", "--prompt-tokens", "32"] + extra, capture_output=True, text=True)
        ours["prefill512" if extra else "decode"] = json.loads(run.stdout) if run.returncode == 0 else run.stderr
    # transformers on the same shape and dtype (random weights of its own: speed does not depend on them).
    config = transformers.LlamaConfig(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
                                      num_attention_heads=32, num_key_value_heads=8, vocab_size=32000,
                                      max_position_embeddings=4096)
    model = transformers.LlamaForCausalLM(config).to("cuda", torch.bfloat16).eval()
    ids = torch.randint(0, 32000, (1, 32), device="cuda")
    with torch.no_grad():
        model.generate(ids, max_new_tokens=8, do_sample=False)
        torch.cuda.synchronize()
        start = time.perf_counter()
        model.generate(ids, max_new_tokens=128, do_sample=False, min_new_tokens=128)
        torch.cuda.synchronize()
        hf_tok_s = 128 / (time.perf_counter() - start)
    a = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    b = torch.empty_like(a)
    b.copy_(a)
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(10):
        b.copy_(a)
    torch.cuda.synchronize()
    copy_gbs = 10 * 2 * a.numel() / (time.perf_counter() - start) / 1e9
    return {"ours": ours, "transformers_decode_tok_s": hf_tok_s, "device_copy_gb_s_read_plus_write": copy_gbs}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--swb", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    report = {"torch": torch.__version__, "transformers": transformers.__version__,
              "greedy": [check_greedy(args.swb, args.work, k) for k in ("llama", "qwen2", "gpt2")],
              "processors": check_processors(args.swb, args.work),
              "speed": check_speed(args.swb, args.work)}
    json.dump(report, open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
