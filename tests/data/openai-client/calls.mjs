// Every call the README documents for swb serve, made with the official `openai` npm client (issue 34).
// Usage: node calls.mjs BASE_URL API_KEY MODEL   (the client is resolved from NODE_PATH / the working folder)
// Prints one line per call that held; exits 1 with the reason at the first that did not.
import OpenAI from "openai";

const [baseURL, apiKey, model] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 60_000 });

function check(condition, what) {
  if (!condition) {
    console.error("FAILED: " + what);
    process.exit(1);
  }
}

async function main() {
  const models = await client.models.list();
  check(models.data.length === 1 && models.data[0].id === model, "models.list names the model");
  const one = await client.models.retrieve(model);
  check(one.id === model && one.object === "model", "models.retrieve");
  console.log("ok models");

  const completion = await client.completions.create({ model, prompt: "And God said", max_tokens: 8, temperature: 0, logprobs: 2 });
  check(completion.choices.length === 1 && completion.choices[0].text.length > 0, "completions.create text");
  check(completion.usage.completion_tokens === 8, "completions usage");
  check(completion.choices[0].logprobs.tokens.length === 8, "completions logprobs");
  console.log("ok completions");

  let streamed = "";
  let finish = null;
  const stream = await client.completions.create({ model, prompt: "And God said", max_tokens: 8, temperature: 0, stream: true });
  for await (const chunk of stream) {
    streamed += chunk.choices[0]?.text ?? "";
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  check(streamed === completion.choices[0].text, "streamed completion equals the whole one");
  check(finish === "length", "stream finish reason");
  console.log("ok completions stream");

  const messages = [{ role: "system", content: "Be brief." }, { role: "user", content: "Who spoke?" }];
  const chat = await client.chat.completions.create({ model, messages, max_tokens: 6, temperature: 0, logprobs: true, top_logprobs: 3, n: 2, seed: 4 });
  check(chat.choices.length === 2 && chat.choices[0].message.role === "assistant", "chat n=2");
  check(chat.choices[0].logprobs.content[0].top_logprobs.length === 3, "chat top_logprobs");
  const parts = await client.chat.completions.create({ model, max_tokens: 6, temperature: 0,
    messages: [{ role: "system", content: "Be brief." }, { role: "user", content: [{ type: "text", text: "Who spoke?" }] }] });
  check(parts.usage.prompt_tokens === chat.usage.prompt_tokens, "content parts read as the same text");
  console.log("ok chat");

  let text = "";
  let usage = null;
  const chatStream = await client.chat.completions.create({ model, messages, max_tokens: 6, temperature: 0, stream: true, stream_options: { include_usage: true } });
  for await (const chunk of chatStream) {
    text += chunk.choices[0]?.delta?.content ?? "";
    usage = chunk.usage ?? usage;
  }
  check(usage && usage.completion_tokens === 6, "chat stream usage");
  check(text.length > 0, "chat stream text");
  console.log("ok chat stream");

  const stopped = await client.completions.create({ model, prompt: "And God said", max_tokens: 40, temperature: 0, stop: ["\n"] });
  check(!stopped.choices[0].text.includes("\n"), "stop");
  console.log("ok stop");

  try {
    await client.completions.create({ model, prompt: "a", temperature: 5 });
    check(false, "a bad field is refused");
  } catch (error) {
    check(error instanceof OpenAI.BadRequestError && error.param === "temperature", "400 names the field: " + error);
  }
  try {
    await client.completions.create({ model: "gpt-4o", prompt: "a" });
    check(false, "another model is refused");
  } catch (error) {
    check(error instanceof OpenAI.NotFoundError && error.code === "model_not_found", "404 model_not_found: " + error);
  }
  try {
    await new OpenAI({ baseURL, apiKey: "wrong", maxRetries: 0 }).models.list();
    check(false, "a wrong key is refused");
  } catch (error) {
    check(error instanceof OpenAI.AuthenticationError, "401: " + error);
  }
  console.log("ok errors");
}

main().catch((error) => {
  console.error("FAILED: " + error);
  process.exit(1);
});
