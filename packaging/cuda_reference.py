#!/usr/bin/env python3
"""transformers as the reference for the CUDA path (run by packaging/cuda-check.sh on a GPU machine).

1. Random-weight Llama, Qwen2 and GPT-2 models made with transformers (save_pretrained, safetensors, a
   byte-level tokenizer.json): transformers' greedy generate on CUDA in float32 against
   `swb generate --device cuda --prompt-ids ... --trace` (and --device cpu): the same 64 tokens, and each
   step's top-16 logits within 1e-3.
2. Beam search (num_beams 4, every hypothesis returned, length_penalty 0.5 / 1 / 2, early_stopping
   True / False / "never", an end token the search meets) against our beam decoder: the same hypotheses
   and scores.
3. transformers' logits processors (temperature, top_k, top_p, typical, epsilon, eta, min_p,
   repetition_penalty, no_repeat_ngram) on logits rows against `swb sample`: the same surviving sets.
4. Speed on a 1.1B Llama-shaped BF16 model: `swb bench decode --device cuda` (decode, batched decode at 8
   and 32 sequences, prefill at 512 tokens, a device-to-device copy for the bandwidth) beside transformers'
   greedy generate on the same shape and dtype.

Writes one JSON report (--out) and, with --data DIR, the models and transformers' results as test data for
the CPU test suite (tests/data/transformers-reference: tests/core/tst_transformers_reference.cpp).
Needs torch with CUDA, transformers and tokenizers; no network. Every check is caught on its own: a failure
is reported and the others still run.
"""
import argparse, json, os, shutil, subprocess, time, traceback

import torch
import transformers
from tokenizers import Tokenizer, models, pre_tokenizers, decoders

VOCAB = 320
PROMPT = [5, 77, 300, 12, 9, 201, 33, 250]
GREEDY_STEPS = 64
BEAM_STEPS = 12


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
    # Small enough to keep as test data (about 0.5 MB each in float32), with no end token: greedy runs all
    # its steps on both sides.
    torch.manual_seed(seed)
    special = dict(bos_token_id=None, eos_token_id=None, pad_token_id=None)
    if kind == "llama":
        config = transformers.LlamaConfig(vocab_size=VOCAB, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                          num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
                                          **special)
        model = transformers.LlamaForCausalLM(config)
    elif kind == "qwen2":
        config = transformers.Qwen2Config(vocab_size=VOCAB, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                          num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
                                          tie_word_embeddings=True, **special)
        model = transformers.Qwen2ForCausalLM(config)
    else:
        config = transformers.GPT2Config(vocab_size=VOCAB, n_embd=64, n_layer=2, n_head=4, n_positions=128, **special)
        model = transformers.GPT2LMHeadModel(config)
    model = model.float()
    # Default inits are tiny: widen them so the distributions are not flat.
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() >= 2:
                p.normal_(0.0, 0.15)
            else:
                p.add_(torch.randn_like(p) * 0.05)  # norms and biases off their defaults too
    model.save_pretrained(folder, safe_serialization=True)
    byte_level_tokenizer(VOCAB, os.path.join(folder, "tokenizer.json"))
    return model


def swb_json(swb, args):
    run = subprocess.run([swb] + args, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"swb {' '.join(args[:1])} exited {run.returncode}: {run.stderr.strip()[-2000:]}")
    return json.loads(run.stdout)


def check_greedy(swb, work, kind, model, data):
    prompt = PROMPT
    with torch.no_grad():
        out = model.generate(torch.tensor([prompt], device="cuda"), max_new_tokens=GREEDY_STEPS, do_sample=False,
                             output_logits=True, return_dict_in_generate=True)
    ref_tokens = out.sequences[0, len(prompt):].tolist()
    ref_logits = [l[0].float().cpu() for l in out.logits]
    top = []
    for row in ref_logits:
        values, ids = torch.topk(row, 16)
        top.append([[int(i), float(v)] for i, v in zip(ids, values)])
    data["greedy"][kind] = {"prompt": prompt, "tokens": ref_tokens, "top": top}
    result = {"model": kind}
    for device in ("cuda", "cpu"):
        trace = os.path.join(work, f"{kind}-{device}.jsonl")
        swb_json(swb, ["generate", "--model", os.path.join(work, kind), "--prompt-ids", " ".join(map(str, prompt)),
                       "--strategy", "greedy", "--max-tokens", str(GREEDY_STEPS), "--device", device, "--trace", trace,
                       "--json"])
        steps = [json.loads(line) for line in open(trace)]
        ours = [s["chosen"] for s in steps]
        worst = 0.0
        for s, ref in zip(steps, ref_logits):
            for c in s["top"][:16]:
                worst = max(worst, abs(c["logit"] - float(ref[c["id"]])))
        same = ours == ref_tokens
        result[device] = {"same_greedy_tokens": same, "steps": len(ours), "max_abs_logit_diff_top16": worst,
                          "ok": same and worst <= 1e-3}
    return result


def check_beam(swb, work, kind, model, data):
    # An end token the search meets: the token greedy chose at step 4, so hypotheses end at several lengths
    # and the length penalty and early stopping decide between them.
    eos = data["greedy"][kind]["tokens"][4]
    folder = os.path.join(work, kind + "-beam")
    shutil.copytree(os.path.join(work, kind), folder, dirs_exist_ok=True)
    for name in ("config.json", "generation_config.json"):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            config = json.load(open(path))
            config["eos_token_id"] = eos
            json.dump(config, open(path, "w"), indent=1)
    cases, results = [], []
    for lp in (0.5, 1.0, 2.0):
        for es in (True, False, "never"):
            with torch.no_grad():
                out = model.generate(torch.tensor([PROMPT], device="cuda"), num_beams=4, num_return_sequences=4,
                                     length_penalty=lp, early_stopping=es, max_new_tokens=BEAM_STEPS, do_sample=False,
                                     output_scores=True, return_dict_in_generate=True, eos_token_id=eos,
                                     pad_token_id=eos)
            theirs = []
            for seq, score in zip(out.sequences[:, len(PROMPT):].tolist(), out.sequences_scores.tolist()):
                if eos in seq:
                    seq = seq[:seq.index(eos) + 1]
                theirs.append({"tokens": seq, "score": score})
            cases.append({"length_penalty": lp, "early_stopping": es, "hypotheses": theirs})
            strategy = {"samplers": [], "decoder": {"type": "beam", "beams": 4, "return": 4, "length_penalty": lp,
                                                    "early_stopping": es}}
            ours = swb_json(swb, ["generate", "--model", folder, "--prompt-ids", " ".join(map(str, PROMPT)),
                                  "--strategy", json.dumps(strategy), "--max-tokens", str(BEAM_STEPS), "--device",
                                  "cuda", "--json"])["hypotheses"]
            strip = lambda t: t[:-1] if t and t[-1] == eos else t
            same = [strip(a["tokens"]) for a in ours] == [strip(b["tokens"]) for b in theirs]
            worst = max((abs(a["score"] - b["score"]) for a, b in zip(ours, theirs)), default=1.0)
            results.append({"length_penalty": lp, "early_stopping": es, "same_hypotheses": same,
                            "max_abs_score_diff": worst, "ok": same and worst <= 1e-3,
                            "ours": [[a["tokens"], a["score"]] for a in ours],
                            "transformers": [[b["tokens"], b["score"]] for b in theirs]})
    data["beam"][kind] = {"eos": eos, "prompt": PROMPT, "max_new_tokens": BEAM_STEPS, "cases": cases}
    return {"model": kind, "eos": eos, "cases": results}


def check_processors(swb, work, data):
    g = torch.Generator().manual_seed(3)
    history = [5, 9, 17, 300, 5]
    rows = []
    for s in (0.5, 2.0, 6.0):
        row = torch.randn(1000, generator=g) * s
        # The row's top ids among the history, so penalties bite.
        row[history] = row.max() + torch.arange(len(history), dtype=row.dtype)
        rows.append(row)
    cases = [("temperature", transformers.TemperatureLogitsWarper(0.7), {"type": "temperature", "value": 0.7}),
             ("top_k", transformers.TopKLogitsWarper(40), {"type": "top_k", "k": 40}),
             ("top_p", transformers.TopPLogitsWarper(0.9), {"type": "top_p", "p": 0.9}),
             ("typical", transformers.TypicalLogitsWarper(0.9), {"type": "typical", "p": 0.9}),
             ("epsilon", transformers.EpsilonLogitsWarper(3e-4), {"type": "epsilon", "epsilon": 3e-4}),
             ("eta", transformers.EtaLogitsWarper(3e-4, device="cpu"), {"type": "eta", "epsilon": 3e-4}),
             ("min_p", transformers.MinPLogitsWarper(0.05), {"type": "min_p", "p": 0.05}),
             # Repetition penalty then top_k (so that it changes the set), and a banned 2-gram.
             ("repetition_penalty", [transformers.RepetitionPenaltyLogitsProcessor(1.3), transformers.TopKLogitsWarper(20)],
              [{"type": "repetition_penalty", "penalty": 1.3}, {"type": "top_k", "k": 20}]),
             ("no_repeat_ngram", transformers.NoRepeatNGramLogitsProcessor(2), {"type": "no_repeat_ngram", "n": 2})]
    data["processors"] = {"history": history, "rows": [r.tolist() for r in rows], "cases": []}
    results = []
    for name, processor, sampler in cases:
        processors = processor if isinstance(processor, list) else [processor]
        samplers = sampler if isinstance(sampler, list) else [sampler]
        kept_sets = []
        for i, row in enumerate(rows):
            scores = row[None].clone()
            for p in processors:
                scores = p(torch.tensor([history]), scores)
            theirs = set(torch.nonzero(scores[0] > -float("inf")).flatten().tolist())
            kept_sets.append(sorted(theirs))
            path = os.path.join(work, f"logits-{name}-{i}.json")
            json.dump({"logits": row.tolist()}, open(path, "w"))
            try:
                out = swb_json(swb, ["sample", "--logits", path, "--history", " ".join(map(str, history)),
                                     "--strategy", json.dumps({"samplers": samplers + [{"type": "dist"}]})])
                ours = {c["id"] for c in out["final"]}
                results.append({"processor": name, "row": i, "transformers_kept": len(theirs), "ours_kept": len(ours),
                                "ok": ours == theirs})
            except Exception as e:
                results.append({"processor": name, "row": i, "error": str(e)})
        data["processors"]["cases"].append({"name": name, "samplers": samplers, "kept": kept_sets})
    return results


def check_speed(swb, work):
    path = os.path.join(work, "llama1b-bf16.gguf")
    subprocess.run([swb, "bench", "decode", "--write-random-model", path, "--random-shape",
                    "2048,16,32,8192,32000,4096", "--kv-heads", "8", "--weight-type", "bf16"], check=True,
                   capture_output=True)
    ours = {}
    for name, extra in (("decode", ["--prompt-tokens", "32", "--tokens", "128", "--batch", "8,32"]),
                        ("prefill512", ["--prompt-tokens", "512", "--tokens", "8"])):
        try:
            ours[name] = swb_json(swb, ["bench", "decode", "--model", path, "--device", "cuda", "--dtype", "bf16"] + extra)
        except Exception as e:
            ours[name] = str(e)
    # transformers on the same shape and dtype (random weights of its own: speed does not depend on them).
    config = transformers.LlamaConfig(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
                                      num_attention_heads=32, num_key_value_heads=8, vocab_size=32000,
                                      max_position_embeddings=4096)
    model = transformers.LlamaForCausalLM(config).to("cuda", torch.bfloat16).eval()
    ids = torch.randint(0, 32000, (1, 32), device="cuda")
    with torch.no_grad():
        model.generate(ids, max_new_tokens=8, do_sample=False, pad_token_id=0)
        torch.cuda.synchronize()
        start = time.perf_counter()
        model.generate(ids, max_new_tokens=128, min_new_tokens=128, do_sample=False, pad_token_id=0)
        torch.cuda.synchronize()
        hf_tok_s = 128 / (time.perf_counter() - start)
        batch = torch.randint(0, 32000, (32, 32), device="cuda")
        start = time.perf_counter()
        model.generate(batch, max_new_tokens=64, min_new_tokens=64, do_sample=False, pad_token_id=0)
        torch.cuda.synchronize()
        hf_batch32_tok_s = 32 * 64 / (time.perf_counter() - start)
    del model
    a = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    b = torch.empty_like(a)
    b.copy_(a)
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(10):
        b.copy_(a)
    torch.cuda.synchronize()
    copy_read_gbs = 10 * a.numel() / (time.perf_counter() - start) / 1e9
    result = {"ours": ours, "transformers_decode_tok_s": hf_tok_s, "transformers_batch32_tok_s": hf_batch32_tok_s,
              "torch_copy_read_gb_s": copy_read_gbs}
    if isinstance(ours.get("decode"), dict):
        d = ours["decode"]
        result["decode_vs_transformers"] = d["decode_tok_s"] / hf_tok_s
        result["effective_gb_s_vs_copy"] = d["effective_gb_s"] / copy_read_gbs
    return result


def guarded(report, key, fn, *args):
    start = time.perf_counter()
    try:
        report[key] = fn(*args)
    except Exception:
        report[key] = {"error": traceback.format_exc()[-3000:]}
    report.setdefault("seconds", {})[key] = round(time.perf_counter() - start, 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--swb", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--data", help="write the models and transformers' results here, as CPU test data")
    parser.add_argument("--skip-speed", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    torch.backends.cuda.matmul.allow_tf32 = False  # float32 products in float32, as ours
    torch.backends.cudnn.allow_tf32 = False
    report = {"torch": torch.__version__, "transformers": transformers.__version__, "greedy": [], "beam": []}
    data = {"torch": torch.__version__, "transformers": transformers.__version__, "greedy": {}, "beam": {}}
    for seed, kind in enumerate(("llama", "qwen2", "gpt2"), start=7):
        try:
            model = make_model(kind, os.path.join(args.work, kind), seed).to("cuda").eval()
        except Exception:
            report["greedy"].append({"model": kind, "error": traceback.format_exc()[-3000:]})
            continue
        for name, fn in (("greedy", check_greedy), ("beam", check_beam)):
            try:
                report[name].append(fn(args.swb, args.work, kind, model, data))
            except Exception:
                report[name].append({"model": kind, "error": traceback.format_exc()[-3000:]})
        json.dump(report, open(args.out, "w"), indent=1)
    guarded(report, "processors", check_processors, args.swb, args.work, data)
    json.dump(report, open(args.out, "w"), indent=1)
    if args.data:
        os.makedirs(args.data, exist_ok=True)
        for kind in data["greedy"]:
            target = os.path.join(args.data, kind)
            os.makedirs(target, exist_ok=True)
            for name in ("config.json", "generation_config.json", "model.safetensors", "tokenizer.json"):
                source = os.path.join(args.work, kind, name)
                if os.path.exists(source):
                    shutil.copy(source, target)
        json.dump(data, open(os.path.join(args.data, "expected.json"), "w"))
    if not args.skip_speed:
        guarded(report, "speed", check_speed, args.swb, args.work)
    json.dump(report, open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
