// Training runs on libtorch's autograd, so this file includes torch headers; nothing else about
// training leaks out of it (DemoTrainer.h is plain C++/Qt).
#include "training/DemoTrainer.h"

#include <chrono>
#include <cmath>
#include <deque>
#include <exception>
#include <numbers>

#include <dlfcn.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

// Qt's `slots` macro collides with an identifier in torch's headers.
#pragma push_macro("slots")
#undef slots
#include <torch/torch.h>
#pragma pop_macro("slots")

#include "Rng.h"
#include "model/Model.h"
#include "tokenizer/TokenizerJsonLoader.h"
#include "training/BpeTrainer.h"
#include "training/DemoCorpus.h"
#include "training/Perplexity.h"
#include "training/SafeTensorsWriter.h"
#include "training/TokenizerJsonWriter.h"

namespace swb {

namespace {

constexpr double kNormEps = 1e-5;
constexpr double kRopeTheta = 10000.0;
const char* const kEndOfText = "<|endoftext|>";

void setBlasThreads(int threads) {
    using Setter = void (*)(int);
    if (auto setter = reinterpret_cast<Setter>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
        setter(threads);
}

struct LayerParameters {
    torch::Tensor attnNorm, wq, wk, wv, wo, ffnNorm, gate, up, down;
};

// The decoder's weights in Hugging Face's layout ([out, in] matrices, Q/K rows in rotate-half order).
struct Parameters {
    torch::Tensor embed, norm; // the classifier is tied to embed
    std::vector<LayerParameters> layers;

    std::vector<torch::Tensor> matrices() const {
        std::vector<torch::Tensor> all{embed};
        for (const LayerParameters& l : layers)
            for (const torch::Tensor& t : {l.wq, l.wk, l.wv, l.wo, l.gate, l.up, l.down})
                all.push_back(t);
        return all;
    }
    std::vector<torch::Tensor> gains() const {
        std::vector<torch::Tensor> all{norm};
        for (const LayerParameters& l : layers) {
            all.push_back(l.attnNorm);
            all.push_back(l.ffnNorm);
        }
        return all;
    }
};

Parameters initialise(const DemoTrainingOptions& o) {
    const auto normal = [](std::int64_t rows, std::int64_t cols, double std) {
        return (torch::randn({rows, cols}) * std).requires_grad_(true);
    };
    const auto ones = [](std::int64_t n) { return torch::ones({n}).requires_grad_(true); };
    // GPT-2's initialisation: N(0, 0.02), the projections into the residual stream scaled down by
    // the number of residual additions.
    const double residual = 0.02 / std::sqrt(2.0 * o.layers);
    Parameters p;
    p.embed = normal(o.vocabularySize, o.dim, 0.02);
    p.norm = ones(o.dim);
    for (int l = 0; l < o.layers; ++l) {
        LayerParameters L;
        L.attnNorm = ones(o.dim);
        L.wq = normal(o.dim, o.dim, 0.02);
        L.wk = normal(o.dim, o.dim, 0.02);
        L.wv = normal(o.dim, o.dim, 0.02);
        L.wo = normal(o.dim, o.dim, residual);
        L.ffnNorm = ones(o.dim);
        L.gate = normal(o.hiddenDim, o.dim, 0.02);
        L.up = normal(o.hiddenDim, o.dim, 0.02);
        L.down = normal(o.dim, o.hiddenDim, residual);
        p.layers.push_back(std::move(L));
    }
    return p;
}

torch::Tensor rmsNorm(const torch::Tensor& x, const torch::Tensor& weight) {
    return x * torch::rsqrt(x.pow(2).mean(-1, true) + kNormEps) * weight;
}

// x: [B, H, T, hd]; cos, sin: [T, hd / 2]. Pairs (i, i + hd/2): transformers' rotate_half, which is
// what the decoder applies to Hugging Face checkpoints.
torch::Tensor rope(const torch::Tensor& x, const torch::Tensor& cos, const torch::Tensor& sin) {
    const std::int64_t half = x.size(-1) / 2;
    const torch::Tensor x0 = x.narrow(-1, 0, half);
    const torch::Tensor x1 = x.narrow(-1, half, half);
    return torch::cat({x0 * cos - x1 * sin, x1 * cos + x0 * sin}, -1);
}

// Mean cross-entropy of predicting targets [B, T] from inputs [B, T].
torch::Tensor loss(const Parameters& p, const DemoTrainingOptions& o, const torch::Tensor& inputs,
                   const torch::Tensor& targets, const torch::Tensor& cos, const torch::Tensor& sin,
                   const torch::Tensor& mask) {
    const std::int64_t B = inputs.size(0), T = inputs.size(1), H = o.heads, hd = o.dim / o.heads;
    const double scale = 1.0 / std::sqrt(static_cast<double>(hd));
    torch::Tensor h = p.embed.index_select(0, inputs.flatten()).view({B, T, o.dim});
    for (const LayerParameters& l : p.layers) {
        const torch::Tensor a = rmsNorm(h, l.attnNorm);
        const auto heads = [&](const torch::Tensor& w) {
            return torch::matmul(a, w.t()).view({B, T, H, hd}).transpose(1, 2);
        };
        const torch::Tensor q = rope(heads(l.wq), cos, sin);
        const torch::Tensor k = rope(heads(l.wk), cos, sin);
        const torch::Tensor v = heads(l.wv);
        const torch::Tensor scores = torch::matmul(q, k.transpose(-2, -1)) * scale + mask;
        const torch::Tensor attended =
            torch::matmul(torch::softmax(scores, -1), v).transpose(1, 2).reshape({B, T, o.dim});
        h = h + torch::matmul(attended, l.wo.t());
        const torch::Tensor f = rmsNorm(h, l.ffnNorm);
        h = h + torch::matmul(torch::silu(torch::matmul(f, l.gate.t())) * torch::matmul(f, l.up.t()), l.down.t());
    }
    const torch::Tensor logits = torch::matmul(rmsNorm(h, p.norm), p.embed.t());
    return torch::nn::functional::cross_entropy(logits.view({B * T, o.vocabularySize}), targets.flatten());
}

QByteArray bf16Bytes(const torch::Tensor& t) {
    const torch::Tensor b = t.detach().to(torch::kBFloat16).contiguous();
    return QByteArray(static_cast<const char*>(b.data_ptr()), static_cast<qsizetype>(b.numel() * 2));
}

Status writeJson(const QString& file, const QJsonObject& object) {
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        out.write(QJsonDocument(object).toJson(QJsonDocument::Indented)) < 0 || !out.flush())
        return Error::badInput(QStringLiteral("cannot write %1: %2").arg(file, out.errorString()));
    return {};
}

Status writeModel(const Parameters& p, const DemoTrainingOptions& o, const QDir& dir) {
    SafeTensorsWriter writer;
    const auto add = [&](const QString& name, const torch::Tensor& t) {
        writer.add(name, QStringLiteral("BF16"), t.sizes().vec(), bf16Bytes(t));
    };
    add(QStringLiteral("model.embed_tokens.weight"), p.embed);
    for (std::size_t i = 0; i < p.layers.size(); ++i) {
        const LayerParameters& l = p.layers[i];
        const QString prefix = QStringLiteral("model.layers.%1.").arg(i);
        add(prefix + QStringLiteral("input_layernorm.weight"), l.attnNorm);
        add(prefix + QStringLiteral("self_attn.q_proj.weight"), l.wq);
        add(prefix + QStringLiteral("self_attn.k_proj.weight"), l.wk);
        add(prefix + QStringLiteral("self_attn.v_proj.weight"), l.wv);
        add(prefix + QStringLiteral("self_attn.o_proj.weight"), l.wo);
        add(prefix + QStringLiteral("post_attention_layernorm.weight"), l.ffnNorm);
        add(prefix + QStringLiteral("mlp.gate_proj.weight"), l.gate);
        add(prefix + QStringLiteral("mlp.up_proj.weight"), l.up);
        add(prefix + QStringLiteral("mlp.down_proj.weight"), l.down);
    }
    add(QStringLiteral("model.norm.weight"), p.norm);
    if (Status s = writer.write(dir.filePath(QStringLiteral("model.safetensors"))); !s)
        return s;
    const QJsonObject config{
        {QStringLiteral("architectures"), QJsonArray{QStringLiteral("LlamaForCausalLM")}},
        {QStringLiteral("model_type"), QStringLiteral("llama")},
        {QStringLiteral("hidden_size"), o.dim},
        {QStringLiteral("intermediate_size"), o.hiddenDim},
        {QStringLiteral("num_hidden_layers"), o.layers},
        {QStringLiteral("num_attention_heads"), o.heads},
        {QStringLiteral("num_key_value_heads"), o.heads},
        {QStringLiteral("head_dim"), o.dim / o.heads},
        {QStringLiteral("vocab_size"), o.vocabularySize},
        {QStringLiteral("max_position_embeddings"), o.context},
        {QStringLiteral("rms_norm_eps"), kNormEps},
        {QStringLiteral("rope_theta"), kRopeTheta},
        {QStringLiteral("hidden_act"), QStringLiteral("silu")},
        {QStringLiteral("attention_bias"), false},
        {QStringLiteral("mlp_bias"), false},
        {QStringLiteral("tie_word_embeddings"), true},
        {QStringLiteral("bos_token_id"), 0},
        {QStringLiteral("eos_token_id"), 0},
        {QStringLiteral("initializer_range"), 0.02},
        {QStringLiteral("torch_dtype"), QStringLiteral("bfloat16")},
    };
    if (Status s = writeJson(dir.filePath(QStringLiteral("config.json")), config); !s)
        return s;
    const QJsonObject generation{
        {QStringLiteral("bos_token_id"), 0}, {QStringLiteral("eos_token_id"), 0},
        {QStringLiteral("do_sample"), true}, {QStringLiteral("temperature"), 0.8},
        {QStringLiteral("top_p"), 0.95},     {QStringLiteral("max_new_tokens"), 80},
    };
    return writeJson(dir.filePath(QStringLiteral("generation_config.json")), generation);
}

// One line of progress, to o.progress where there is one.
void say(const DemoTrainingOptions& o, const QString& line) {
    if (o.progress)
        o.progress(line);
}

// The corpus's sizes into the report, and said.
void reportCorpus(const DemoTrainingOptions& o, const DemoCorpus& corpus, DemoTrainingReport& report) {
    report.trainingChapters = static_cast<std::int64_t>(corpus.trainingChapters().size());
    report.validationChapters = static_cast<std::int64_t>(corpus.validationChapters().size());
    report.trainingVerses = corpus.trainingVerses();
    report.validationVerses = corpus.validationVerses();
    report.trainingBytes = corpus.trainingBytes();
    report.validationBytes = corpus.validationBytes();
    say(o, QStringLiteral("corpus: %1 training chapters (%2 verses, %3 bytes), %4 validation chapters (%5 verses, %6 "
                          "bytes)")
               .arg(report.trainingChapters)
               .arg(report.trainingVerses)
               .arg(report.trainingBytes)
               .arg(report.validationChapters)
               .arg(report.validationVerses)
               .arg(report.validationBytes));
}

// The tokenizer trained on the training split (saved as tokenizer.json and loaded back), and the training split
// as its tokens.
struct TokenizedCorpus {
    std::unique_ptr<Tokenizer> tokenizer;
    std::vector<std::int64_t> stream;
};

Result<TokenizedCorpus> tokenizeCorpus(const DemoTrainingOptions& o, const QDir& dir, const DemoCorpus& corpus,
                                       DemoTrainingReport& report) {
    QElapsedTimer clock;
    clock.start();
    const Result<BpeVocabulary> vocabulary =
        BpeTrainer::train(corpus.trainingChapters(), o.vocabularySize, {std::string(kEndOfText)});
    if (!vocabulary)
        return vocabulary.error();
    const QString tokenizerFile = dir.filePath(QStringLiteral("tokenizer.json"));
    if (Status s = TokenizerJsonWriter::write(vocabulary.value(), tokenizerFile); !s)
        return s.error();
    Result<std::unique_ptr<Tokenizer>> tokenizer = TokenizerJsonLoader::load(tokenizerFile);
    if (!tokenizer)
        return tokenizer.error();
    TokenizedCorpus out;
    out.tokenizer = std::move(tokenizer.value());
    // The training stream: <|endoftext|> before every chapter (and after the last), so the model learns
    // to begin a chapter after it and to end one with it; verses within a chapter are lines.
    std::vector<std::int64_t>& stream = out.stream;
    for (const std::string& chapter : corpus.trainingChapters()) {
        stream.push_back(0);
        for (const TokenId id : out.tokenizer->encode(chapter, false, false))
            stream.push_back(id);
    }
    stream.push_back(0);
    report.trainingTokens = static_cast<std::int64_t>(stream.size());
    report.tokenizerSeconds = static_cast<double>(clock.elapsed()) / 1000.0;
    say(o, QStringLiteral("tokenizer: %1 tokens, %2 merges; the training split is %3 tokens (%4 s)")
               .arg(vocabulary->tokens.size())
               .arg(vocabulary->merges.size())
               .arg(report.trainingTokens)
               .arg(report.tokenizerSeconds, 0, 'f', 1));
    return out;
}

// B windows of W tokens from the stream at random offsets (inputs), each with the tokens that follow (targets).
void sampleWindows(const std::vector<std::int64_t>& stream, SplitMix64& random, std::int64_t B, std::int64_t W,
                   std::vector<std::int64_t>& inputs, std::vector<std::int64_t>& targets) {
    const std::uint64_t starts = static_cast<std::uint64_t>(stream.size()) - static_cast<std::uint64_t>(W) - 1;
    inputs.resize(static_cast<std::size_t>(B * W));
    targets.resize(inputs.size());
    for (std::int64_t b = 0; b < B; ++b) {
        const std::size_t start = static_cast<std::size_t>(random.next() % starts);
        for (std::int64_t t = 0; t < W; ++t) {
            inputs[static_cast<std::size_t>(b * W + t)] = stream[start + static_cast<std::size_t>(t)];
            targets[static_cast<std::size_t>(b * W + t)] = stream[start + static_cast<std::size_t>(t) + 1];
        }
    }
}

// The learning rate of a step: a linear warmup, then a cosine decay to o.minLearningRate.
double learningRate(const DemoTrainingOptions& o, int step) {
    const double lr =
        step < o.warmupSteps
            ? o.learningRate * (step + 1) / o.warmupSteps
            : o.minLearningRate +
                  0.5 * (o.learningRate - o.minLearningRate) *
                      (1 + std::cos(std::numbers::pi * (step - o.warmupSteps) / std::max(1, o.steps - o.warmupSteps)));
    return lr;
}

// AdamW over the parameters for o.steps steps, short windows but for every longEvery-th step (longBatch windows
// of the whole context); the steps, tokens, loss and time go into the report.
void trainParameters(const DemoTrainingOptions& o, const Parameters& p, const std::vector<std::int64_t>& stream,
                     std::int64_t longBatch, DemoTrainingReport& report) {
    const auto adamw = [&](double decay) {
        return std::make_unique<torch::optim::AdamWOptions>(
            torch::optim::AdamWOptions(o.learningRate).betas({0.9, 0.95}).eps(1e-8).weight_decay(decay));
    };
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(p.matrices(), adamw(o.weightDecay));
    groups.emplace_back(p.gains(), adamw(0.0));
    torch::optim::AdamW optimizer(std::move(groups), torch::optim::AdamWOptions(o.learningRate));
    std::vector<torch::Tensor> all = p.matrices();
    for (const torch::Tensor& t : p.gains())
        all.push_back(t);

    const std::int64_t T = o.context;
    const std::int64_t half = o.dim / o.heads / 2;
    const torch::Tensor invFreq =
        1.0 / torch::pow(kRopeTheta, torch::arange(0, half, torch::kFloat64) * 2.0 / static_cast<double>(2 * half));
    const torch::Tensor angles = torch::outer(torch::arange(0, T, torch::kFloat64), invFreq).to(torch::kFloat);
    const torch::Tensor cos = angles.cos(), sin = angles.sin();
    const torch::Tensor mask = torch::full({T, T}, -INFINITY).triu(1);

    SplitMix64 random(o.seed ^ 0x5eedull); // window offsets, the same on every platform
    std::vector<std::int64_t> inputs, targets;
    std::deque<double> recent;
    QElapsedTimer clock;
    clock.start();
    for (int step = 0; step < o.steps; ++step) {
        const bool long_ = o.longEvery > 0 && step % o.longEvery == o.longEvery - 1;
        const std::int64_t B = long_ ? longBatch : o.batch, W = long_ ? T : std::min<std::int64_t>(o.window, T);
        sampleWindows(stream, random, B, W, inputs, targets);
        const double lr = learningRate(o, step);
        for (torch::optim::OptimizerParamGroup& g : optimizer.param_groups())
            static_cast<torch::optim::AdamWOptions&>(g.options()).lr(lr);
        const torch::Tensor x = torch::from_blob(inputs.data(), {B, W}, torch::kLong);
        const torch::Tensor y = torch::from_blob(targets.data(), {B, W}, torch::kLong);
        optimizer.zero_grad();
        const torch::Tensor l =
            loss(p, o, x, y, cos.narrow(0, 0, W), sin.narrow(0, 0, W), mask.narrow(0, 0, W).narrow(1, 0, W));
        l.backward();
        torch::nn::utils::clip_grad_norm_(all, 1.0);
        optimizer.step();
        recent.push_back(l.item<double>());
        if (recent.size() > 50)
            recent.pop_front();
        report.steps = step + 1;
        report.tokensSeen += B * W;
        if ((step + 1) % 25 == 0 || step + 1 == o.steps) {
            double mean = 0;
            for (const double v : recent)
                mean += v;
            report.finalTrainingLoss = mean / static_cast<double>(recent.size());
            say(o, QStringLiteral("step %1/%2 loss %3 lr %4 elapsed %5 s")
                       .arg(step + 1)
                       .arg(o.steps)
                       .arg(report.finalTrainingLoss, 0, 'f', 3)
                       .arg(lr, 0, 'g', 3)
                       .arg(static_cast<double>(clock.elapsed()) / 1000.0, 0, 'f', 0));
        }
    }
    report.trainingSeconds = static_cast<double>(clock.elapsed()) / 1000.0;
}

Result<DemoTrainingReport> train(const DemoTrainingOptions& o) {
    if (o.dim % o.heads != 0 || (o.dim / o.heads) % 2 != 0)
        return Error::badInput(
            QStringLiteral("the width %1 does not split into %2 heads of even size").arg(o.dim).arg(o.heads));
    const QDir dir(o.outputDir);
    if (!QDir().mkpath(o.outputDir))
        return Error::badInput(QStringLiteral("cannot create the folder %1").arg(o.outputDir));
    DemoTrainingReport report;

    Result<DemoCorpus> corpus = DemoCorpus::extract();
    if (!corpus)
        return corpus.error();
    reportCorpus(o, corpus.value(), report);

    Result<TokenizedCorpus> tokenized = tokenizeCorpus(o, dir, corpus.value(), report);
    if (!tokenized)
        return tokenized.error();

    at::set_num_threads(o.threads);
    setBlasThreads(o.threads);
    torch::manual_seed(o.seed);
    const Parameters p = initialise(o);
    for (const torch::Tensor& t : p.matrices())
        report.parameters += t.numel();
    for (const torch::Tensor& t : p.gains())
        report.parameters += t.numel();
    // Most steps take short windows (cheap: attention grows with the square of the window); every
    // longEvery-th step takes windows of the whole context holding the same number of tokens, so that
    // every position the model offers is trained throughout the schedule.
    const std::int64_t longBatch = std::max<std::int64_t>(1, std::int64_t{o.batch} * o.window / o.context);
    say(o, QStringLiteral("model: %1 parameters; %2 steps of %3 x %4 tokens, every %5th of %6 x %7")
               .arg(report.parameters)
               .arg(o.steps)
               .arg(o.batch)
               .arg(o.window)
               .arg(o.longEvery)
               .arg(longBatch)
               .arg(o.context));

    trainParameters(o, p, tokenized->stream, longBatch, report);
    if (Status s = writeModel(p, o, dir); !s)
        return s.error();

    // Measured on the files as saved (bf16 weights), exactly as `swb perplexity` measures them.
    ModelOptions modelOptions;
    modelOptions.threads = o.threads;
    Result<std::unique_ptr<Model>> model = Model::load(o.outputDir, modelOptions);
    if (!model)
        return model.error();
    Result<PerplexityResult> ppl =
        Perplexity::ofDocuments(**model, *tokenized->tokenizer, corpus->validationChapters());
    if (!ppl)
        return ppl.error();
    report.validationPerplexity = ppl->perplexity;
    report.validationTokens = ppl->tokens;
    return report;
}

} // namespace

Result<DemoTrainingReport> DemoTrainer::run(const DemoTrainingOptions& options) {
    try {
        return train(options);
    } catch (const c10::Error& e) {
        return Error::internal(
            QStringLiteral("training failed: %1").arg(QString::fromStdString(e.what_without_backtrace())));
    } catch (const std::exception& e) {
        return Error::internal(QStringLiteral("training failed: %1").arg(QString::fromLocal8Bit(e.what())));
    }
}

} // namespace swb
