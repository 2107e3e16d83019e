#!/usr/bin/env python3
"""crosscheck-jinja2.py: renders the cases of expected-llama-cpp.json again with Python's Jinja2, set up as
transformers' apply_chat_template sets it up, and settles every case where the two references disagree in
favour of Python (transformers is what the models' authors test their templates with).

Like generate-expected.mjs, this only produces committed test data; the build and the tests never run it.

    python3 -m pip install jinja2==3.1.6          # 3.1.6 was used
    node generate-expected.mjs /tmp/jinjaref llama-cpp
    python3 crosscheck-jinja2.py

The environment copies transformers' (src/transformers/utils/chat_template_utils.py, _compile_jinja_template):
ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True) with the loopcontrols extension and a
{% generation %} tag that renders its body, tojson = json.dumps(ensure_ascii=False, indent, separators,
sort_keys), raise_exception raising TemplateError, strftime_now at the data's fixed date (2026-01-15 00:00).
The context is the one generate-expected.mjs passes: messages, tools (None when the conversation has none),
documents=None, add_generation_prompt, bos_token "<s>", eos_token "</s>".

Each case keeps @huggingface/jinja's result unless Python's differs. Where it differs the case takes
Python's result (an "output", or an "error" with Python's message) and gets "reference": "jinja2" with
"huggingface_jinja" holding what the JS renderer gave. Cases both renderers agree on get no extra key.
"""
import json
import sys
from datetime import datetime
from pathlib import Path

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = Path(__file__).resolve().parent
FIXED = datetime(2026, 1, 15, 0, 0, 0)


class GenerationTag(Extension):
    """transformers' AssistantTracker without the mask: {% generation %}...{% endgeneration %} renders its body."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_render", []), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()


def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def environment():
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[GenerationTag, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: FIXED.strftime(fmt)
    return env


def main():
    data_path = HERE / "expected-llama-cpp.json"
    data = json.loads(data_path.read_text(encoding="utf-8"))
    conversations = {c["name"]: c for c in json.loads((HERE / "conversations.json").read_text(encoding="utf-8"))}
    env = environment()
    compiled = {}
    counts = {"agree": 0, "jinja2_renders_js_fails": 0, "js_renders_jinja2_fails": 0, "both_render_differ": 0}
    for case in data["cases"]:
        case.pop("reference", None)
        case.pop("huggingface_jinja", None)
        name = case["template"]
        if name not in compiled:
            source = (HERE / "llama-cpp" / f"{name}.jinja").read_text(encoding="utf-8")
            try:
                compiled[name] = env.from_string(source)
            except Exception as e:  # a template Jinja2 cannot parse
                compiled[name] = e
        conv = conversations[case["conversation"]]
        try:
            template = compiled[name]
            if isinstance(template, Exception):
                raise template
            ours = {"output": template.render(messages=conv["messages"], tools=conv.get("tools"), documents=None,
                                              add_generation_prompt=case["add_generation_prompt"],
                                              bos_token="<s>", eos_token="</s>")}
        except Exception as e:
            ours = {"error": f"{type(e).__name__}: {e}"}
        js = {k: case[k] for k in ("output", "error") if k in case}
        if "output" in ours and "output" in js and ours["output"] == js["output"]:
            counts["agree"] += 1
            continue
        if "error" in ours and "error" in js:
            counts["agree"] += 1
            continue
        if "output" in ours and "output" in js:
            counts["both_render_differ"] += 1
        elif "output" in ours:
            counts["jinja2_renders_js_fails"] += 1
        else:
            counts["js_renders_jinja2_fails"] += 1
        for k in ("output", "error"):
            case.pop(k, None)
        case.update(ours)
        case["reference"] = "jinja2"
        case["huggingface_jinja"] = js
    data["crosschecked_with"] = f"Python Jinja2 {jinja2.__version__} (crosscheck-jinja2.py)"
    data_path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(counts))


if __name__ == "__main__":
    sys.exit(main())
