#pragma once

#include <cstdint>
#include <functional>

#include <QString>

#include "Result.h"

namespace swb {

// The recipe's knobs. The defaults are the bundled model's (resources/models/kjv-tiny).
struct DemoTrainingOptions {
    QString outputDir;
    std::uint64_t seed = 20260101;
    int threads = 1; // the bundled files were made with one: results differ in the last bits per thread count
    int vocabularySize = 2048;
    int dim = 128;
    int layers = 4;
    int heads = 4;
    int hiddenDim = 384;
    int context = 1024; // the context length, and the length of the long windows
    int window = 128;   // the length of the other windows
    int longEvery = 4;  // every longEvery-th step takes windows of the whole context (0: never)
    int batch = 16;     // windows of `window` tokens per step (a long step: as many tokens in whole contexts)
    int steps = 1200;
    int warmupSteps = 100;
    double learningRate = 3e-3;
    double minLearningRate = 3e-4;
    double weightDecay = 0.1;
    // Called with one line of progress now and then (corpus, tokenizer, loss every few steps).
    std::function<void(const QString&)> progress;
};

struct DemoTrainingReport {
    std::int64_t trainingChapters = 0, validationChapters = 0;
    std::int64_t trainingVerses = 0, validationVerses = 0;
    std::int64_t trainingBytes = 0, validationBytes = 0;
    std::int64_t trainingTokens = 0; // the training split in the trained tokenizer's tokens
    std::int64_t parameters = 0;
    std::int64_t steps = 0;
    std::int64_t tokensSeen = 0;
    double finalTrainingLoss = 0; // mean over the last 50 steps, nats per token
    double tokenizerSeconds = 0;
    double trainingSeconds = 0;
    double validationPerplexity = 0; // of the saved (bf16) model, as `swb perplexity` measures it
    std::int64_t validationTokens = 0;
};

// Builds the bundled demo model from nothing but the KJV corpus: extracts the verses (DemoCorpus),
// trains a byte-level BPE tokenizer (BpeTrainer), then a small Llama-architecture decoder with libtorch
// autograd on the CPU (AdamW, warmup and cosine decay, random windows of the chapter stream, every
// chapter preceded by <|endoftext|>, most windows short and every few steps whole-context ones), and writes config.json, generation_config.json, tokenizer.json and
// model.safetensors (bf16) to outputDir, in the Hugging Face layout our decoder reads (rotate-half RoPE,
// so no Q/K permutation). Deterministic for a given seed and thread count.
class DemoTrainer {
public:
    static Result<DemoTrainingReport> run(const DemoTrainingOptions& options);
};

} // namespace swb
