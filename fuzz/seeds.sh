#!/bin/sh
# Seed corpora for the harnesses, from the project's own test data and a few hand-written inputs.
# Usage: fuzz/seeds.sh SWB_BINARY OUT_DIR   (SWB_BINARY: a normal build's app/swb, for tiny model files)
set -eu
swb=$1
out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
for name in http openai_request strategy chat_template tokenizer_json tokenize gguf safetensors llama2c csv gbnf json_schema; do
    mkdir -p "$out/$name"
done
printf 'POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 15\r\n\r\n{"prompt":"hi"}' > "$out/http/post"
printf 'GET /health HTTP/1.1\r\n\r\nGET /metrics HTTP/1.0\r\nConnection: keep-alive\r\n\r\n' > "$out/http/pipelined"
printf 'PUT /v1/strategy HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n' > "$out/http/chunked"
printf '0{"prompt": "And God said", "max_tokens": 5, "temperature": 0.7, "top_p": 0.9, "stop": ["\\n"], "logprobs": 3}' > "$out/openai_request/completion"
printf '1{"messages": [{"role": "system", "content": "x"}, {"role": "user", "content": "hi"}], "logprobs": true, "top_logprobs": 2, "stream": true}' > "$out/openai_request/chat"
printf '0{"prompt": [1, 2, 3], "logit_bias": {"5": -100}, "strategy": {"samplers": [{"type": "min_p", "p": 0.1}]}, "n": 2, "seed": 4}' > "$out/openai_request/ids"
printf '1{"messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function", "function": {"name": "f"}}], "mirostat": 2, "dry_multiplier": 0.8}' > "$out/openai_request/tools"
printf 'creative' > "$out/strategy/preset"
printf '{"seed": 3, "order": "llama.cpp", "samplers": [{"type": "penalties", "frequency": 0.5}, {"type": "dry"}, {"type": "top_k", "k": 40}, {"type": "xtc"}, {"type": "temperature", "value": 0.8}, {"type": "dist"}], "stop": ["x"]}' > "$out/strategy/chain"
printf '{"decoder": {"type": "beam", "beams": 4, "force_words": [" a", [" b", " c"]]}, "samplers": [{"type": "logit_bias", "bias": {"3": -5}}, {"type": "no_repeat_ngram", "n": 2}]}' > "$out/strategy/beam"
printf '{"samplers": [{"type": "mirostat_v2", "tau": 4}], "decoder": {"type": "contrastive_search", "top_k": 3}}' > "$out/strategy/mirostat"
printf '{"samplers": [{"type": "grammar", "json_schema": {"type": "object", "properties": {"a": {"type": "integer"}}}}, {"type": "grammar", "gbnf": "root ::= [a-z]+"}, {"type": "dist"}]}' > "$out/strategy/grammar"
printf '1{"messages": [{"role": "user", "content": "x"}], "response_format": {"type": "json_schema", "json_schema": {"name": "n", "schema": {"type": "array", "items": {"enum": [1, "a"]}}}}}' > "$out/openai_request/schema"
printf '0{"prompt": "x", "grammar": "root ::= [0-9]+", "n": 2}' > "$out/openai_request/grammar"
cp "$src"/tests/data/chat-templates/templates/*.jinja "$out/chat_template/"
# Every chat template llama.cpp keeps for its tests (issue 39): integer keys, Markup, generators, macros.
cp "$src"/tests/data/chat-templates/llama-cpp/*.jinja "$out/chat_template/"
# Templates that once crashed or hung the engine (issue 39): overflowing integers, values that contain
# themselves, loops and strings without bound, huge widths.
printf '{{ (-9223372036854775807 - 1) // -1 }}{{ (-9223372036854775807 - 1) %% -1 }}' > "$out/chat_template/int-min"
printf '{%% set a = [] %%}{%% set _ = a.append(a) %%}{{ a|tojson }}{{ a }}{{ a == a }}' > "$out/chat_template/cycle"
printf '{%% for i in range(100000) %%}{%% for j in range(100000) %%}{%% endfor %%}{%% endfor %%}' > "$out/chat_template/loops"
printf '{{ "ab" * 4611686018427387904 }}{{ ([1] * 4611686018427387904)|length }}' > "$out/chat_template/repeat"
printf '{%% set ns = namespace(s="a") %%}{%% for i in range(100) %%}{%% set ns.s = ns.s ~ ns.s %%}{%% endfor %%}' > "$out/chat_template/doubling"
printf '{{ ([1] * 0 * 2000000002000)|length }}{{ ("" * 2000000002000)|length }}' > "$out/chat_template/empty-repeat"
printf '{{ "a"|center(9999999999) }}{{ "a"|indent(9999999999) }}{{ {"a": 1}|tojson(indent=9999999999) }}' > "$out/chat_template/widths"
# Grammars (issue 36): the test schemas, and GBNF with every construct.
cp "$src"/tests/data/grammar/schemas/*.json "$src"/tests/data/grammar/dozen-fields.json "$out/json_schema/"
printf '# a list\nroot ::= item ("," item)* end\nitem ::= [a-z]+ | "\\x41" | [^\\n"]{2,4} | ("x" | "y")?\nend ::= "." | "\\u00e9"\n' > "$out/gbnf/list"
printf 'root ::= "{" ws "\\"k\\"" ws ":" ws [0-9]+ ws "}"\nws ::= [ \\t\\n]*\n' > "$out/gbnf/object"
printf 'root ::= . [\\U0001F600-\\U0001F64F] "a"{1,3} "b"{2,}\n' > "$out/gbnf/unicode"
printf '{"type": "string", "pattern": "^(a|b)+[0-9]{2,3}(?:x|y)?\\\\.$"}' > "$out/json_schema/pattern"
cp "$src/resources/models/kjv-tiny/tokenizer.json" "$out/tokenizer_json/kjv-tiny.json"
printf 'And God said, Let there be light: and there was light.\n\tünï <s></s> 1234' > "$out/tokenize/text"
printf 'prompt,gold\n"a, b",1\n"multi\nline",\n' > "$out/csv/prompts"
printf 'run_id,rater,dimension,score,note\n1,ann,relevance,3,"ok ""quoted"""\n' > "$out/csv/ratings"
# Tiny models: one GGUF per family of types, and a llama2.c checkpoint.
for type in f32 f16 q8_0 q4_0 q4_k q6_k; do
    "$swb" bench decode --write-random-model "$out/gguf/tiny-$type.gguf" --random-shape 256,1,2,256,64,32 \
        --weight-type "$type" --tokens 1 --prompt-tokens 1 > /dev/null
done
"$swb" bench decode --write-random-model "$out/llama2c/tiny.bin" --random-shape 32,1,2,64,64,16 --tokens 1 --prompt-tokens 1 > /dev/null
python3 - "$out/safetensors/tiny.safetensors" <<'PY'
import json, struct, sys
data = struct.pack('<8f', *range(8)) + struct.pack('<4e', 1, 2, 3, 4)
header = json.dumps({"a": {"dtype": "F32", "shape": [2, 4], "data_offsets": [0, 32]},
                     "b": {"dtype": "F16", "shape": [4], "data_offsets": [32, 40]},
                     "__metadata__": {"format": "pt"}}).encode()
open(sys.argv[1], 'wb').write(struct.pack('<Q', len(header)) + header + data)
PY
