#pragma once

// Model B of a divergence served by an engine (llama.cpp's server, vLLM, swb serve): what it tells of each
// position, its top N and the text's own token, read through its OpenAI-compatible API.

#include <string>

#include <QString>

#include "Result.h"
#include "quantization/Divergence.h"
#include "serving/RemoteEngine.h"

namespace swb::quantization {

// Connects to the engine at `address` and checks that it can be model B beside A: it gives token ids, its
// vocabulary has A's size where it says, and (given the text) it reads the text as the same ids as A's
// tokenizer, through its /tokenize. One sentence naming what fails.
Result<RemoteModel> connectServedModelB(const QString& address, const QString& apiKey, const Tokenizer& tokenizerA,
                                        int vocabA, const std::string* text);

// Per position: the engine's top N (raw log probabilities) and, the text's next token forced by a logit bias
// of 100, that token's own raw log probability, which the engine reports for the token it gave.
TopNSource servedTopN(const RemoteModel& model, int topN);

} // namespace swb::quantization
