#!/usr/bin/env node
// generate-expected.mjs: regenerates expected.json, the reference renderings of
// the chat templates in templates/ for the conversations in conversations.json.
//
// The reference renderer is Hugging Face's @huggingface/jinja (npm, MIT). It is
// used ONLY to produce this committed test data. The build and the tests never
// run this script, and the project does not depend on node or npm.
//
// How to regenerate (any scratch folder works; /tmp/jinjaref is only an example):
//
//   mkdir -p /tmp/jinjaref && cd /tmp/jinjaref
//   npm init -y >/dev/null
//   npm install --ignore-scripts @huggingface/jinja        # 0.5.13 was used
//   node /path/to/repo/tests/data/chat-templates/generate-expected.mjs /tmp/jinjaref
//   node /path/to/repo/tests/data/chat-templates/generate-expected.mjs /tmp/jinjaref llama-cpp
//
// Two sets. The default one renders templates/<family>.jinja for FAMILIES below into expected.json. The
// "llama-cpp" set renders every llama-cpp/*.jinja (the chat templates llama.cpp keeps for its tests) into
// expected-llama-cpp.json with the context transformers' apply_chat_template passes: tools and documents
// are always there (None when the conversation has none), and bos_token/eos_token are the fixed "<s>" and
// "</s>" for every template. crosscheck-jinja2.py then renders the same cases with Python's Jinja2.
//
// The single argument (or the JINJA_REF_DIR environment variable; default: the
// current directory) is the folder whose node_modules holds @huggingface/jinja.
// The library is loaded with createRequire from that folder because NODE_PATH is
// ignored by ES modules. The output is written next to this script, and the
// renderer version is stored in it.
//
// For each template x conversation x add_generation_prompt in {false, true} the
// script calls
//   new Template(text).render({ messages, tools?, add_generation_prompt,
//                               bos_token?, eos_token?, strftime_now })
// with nothing else in the context (no date_string, no enable_thinking, ...):
//   - tools is passed only when the conversation has a "tools" key;
//   - bos_token/eos_token come from templates/tokens.json; a null token is left
//     out (like transformers, which passes only the special tokens that exist);
//   - strftime_now is a deterministic stand-in that formats the fixed instant
//     2026-01-15 00:00 (a Thursday) instead of the current time;
//     The library's render() declares its own strftime_now (the real clock)
//     and refuses to let a context variable shadow a built-in ("Variable
//     already declared"), so the script lets this one name replace it;
//   - raise_exception is the library's built-in (it throws with its argument).
// A render that throws is recorded as {"error": message} instead of "output".
// A render whose output contains "[object " is also recorded as an error: that
// is a JavaScript-only artifact (the library turns `"str" + mapping` into
// "[object Map]" where Python's Jinja2 raises a TypeError), not a reference.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const refDir = resolve(process.argv[2] ?? process.env.JINJA_REF_DIR ?? process.cwd());
const LLAMA_CPP = process.argv[3] === "llama-cpp";
const requireFromRef = createRequire(join(refDir, "noop.js"));
const entry = requireFromRef.resolve("@huggingface/jinja");
const { Template, Environment } = requireFromRef(entry);
const pkg = JSON.parse(readFileSync(join(dirname(entry), "..", "package.json"), "utf8"));

// Template ids, in output order; each is <folder>/<id>.jinja.
const FOLDER = LLAMA_CPP ? "llama-cpp" : "templates";
const FAMILIES = LLAMA_CPP
  ? readdirSync(join(here, FOLDER)).filter((f) => f.endsWith(".jinja")).map((f) => f.slice(0, -6)).sort()
  : ["llama3", "qwen2_5", "qwen3", "mistral", "gemma", "phi", "smollm2", "deepseek", "gpt_oss"];
const OUTPUT = LLAMA_CPP ? "expected-llama-cpp.json" : "expected.json";

// Fixed "now" for strftime_now: 2026-01-15 00:00, Thursday (day 15 of the year).
const FIXED = { year: 2026, month: 1, day: 15, hour: 0, minute: 0, second: 0, weekday: 4, yday: 15 };
const MONTHS = ["January", "February", "March", "April", "May", "June", "July",
  "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const pad = (n, w = 2) => String(n).padStart(w, "0");

function strftime_now(format) {
  return String(format).replace(/%([a-zA-Z%])/g, (token, c) => {
    switch (c) {
      case "Y": return String(FIXED.year);
      case "y": return pad(FIXED.year % 100);
      case "m": return pad(FIXED.month);
      case "d": return pad(FIXED.day);
      case "e": return String(FIXED.day).padStart(2, " ");
      case "b": case "h": return MONTHS[FIXED.month - 1].slice(0, 3);
      case "B": return MONTHS[FIXED.month - 1];
      case "a": return DAYS[FIXED.weekday].slice(0, 3);
      case "A": return DAYS[FIXED.weekday];
      case "j": return pad(FIXED.yday, 3);
      case "H": return pad(FIXED.hour);
      case "I": return pad(FIXED.hour % 12 === 0 ? 12 : FIXED.hour % 12);
      case "p": return FIXED.hour < 12 ? "AM" : "PM";
      case "M": return pad(FIXED.minute);
      case "S": return pad(FIXED.second);
      case "%": return "%";
      default: return token;
    }
  });
}

// Allow the caller's strftime_now to replace the built-in one (see above).
const librarySet = Environment.prototype.set;
Environment.prototype.set = function (name, value) {
  if (name === "strftime_now" && typeof value === "function") this.variables.delete(name);
  return librarySet.call(this, name, value);
};

const readJson = (p) => JSON.parse(readFileSync(join(here, p), "utf8"));
const conversations = readJson("conversations.json");
const tokens = LLAMA_CPP ? null : readJson("templates/tokens.json");

const cases = [];
const summary = {};
for (const family of FAMILIES) {
  const text = readFileSync(join(here, FOLDER, `${family}.jinja`), "utf8");
  const counts = (summary[family] = { outputs: 0, errors: 0, conversations_ok: new Set() });
  let template = null;
  let parseError = null;
  try {
    template = new Template(text);
  } catch (e) {
    parseError = `parse error: ${e.message}`;
  }
  for (const conv of conversations) {
    for (const add_generation_prompt of [false, true]) {
      const record = { template: family, conversation: conv.name, add_generation_prompt };
      try {
        if (parseError) throw new Error(parseError);
        const context = { messages: structuredClone(conv.messages) };
        if ("tools" in conv) context.tools = structuredClone(conv.tools);
        else if (LLAMA_CPP) context.tools = null;
        if (LLAMA_CPP) context.documents = null;
        context.add_generation_prompt = add_generation_prompt;
        if (LLAMA_CPP) {
          context.bos_token = "<s>";
          context.eos_token = "</s>";
        } else {
          for (const key of ["bos_token", "eos_token"]) {
            const value = tokens[family]?.[key];
            if (value !== null && value !== undefined) context[key] = value;
          }
        }
        context.strftime_now = strftime_now;
        const output = template.render(context);
        if (output.includes("[object ")) {
          throw new Error("JS-only artifact: @huggingface/jinja stringified a non-string value as \"[object ...]\" " +
            "(Python Jinja2 raises TypeError for str + mapping); not usable as an expected output");
        }
        record.output = output;
        counts.outputs++;
        counts.conversations_ok.add(conv.name);
      } catch (e) {
        record.error = String(e?.message ?? e);
        counts.errors++;
      }
      cases.push(record);
    }
  }
}

const result = {
  renderer: `@huggingface/jinja ${pkg.version}`,
  generator: "tests/data/chat-templates/generate-expected.mjs",
  strftime_now_fixed_date: "2026-01-15",
  cases,
};
writeFileSync(join(here, OUTPUT), JSON.stringify(result, null, 1) + "\n");

console.log(`renderer: ${result.renderer}; ${cases.length} cases written to ${OUTPUT}`);
for (const [family, c] of Object.entries(summary)) {
  console.log(`${family.padEnd(LLAMA_CPP ? 48 : 9)} outputs=${String(c.outputs).padStart(2)} errors=${String(c.errors).padStart(2)} ` +
    `conversations with >=1 output=${c.conversations_ok.size}`);
}
