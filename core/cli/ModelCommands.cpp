// swb info (what a model file is) and swb bench decode (how fast it decodes, against the machine's own
// memory bandwidth measured in the same run).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "AppInfo.h"
#include "cli/BusyProcesses.h"
#include "cli/ModelArguments.h"
#include "cli/RandomModelWriter.h"
#include "cli/Subcommand.h"
#include "generation/Generator.h"
#include "model/Model.h"
#include "serving/RemoteEngine.h"
#include "tokenizer/TokenizerLoader.h"

namespace swb::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

// Bench modes share one parser, and another mode may already have declared an option of the same
// name (tokenize's --model); QCommandLineParser warns on a second declaration, so declare it once.
void addOptionOnce(QCommandLineParser& parser, const QCommandLineOption& option) {
    const QString help = parser.helpText();
    for (const QString& name : option.names())
        if (help.contains(QRegularExpression(QStringLiteral("--%1(?![\\w-])").arg(QRegularExpression::escape(name)))))
            return;
    parser.addOption(option);
}

void declareModelOptions(QCommandLineParser& parser) {
    addOptionOnce(parser, {QStringLiteral("model"), QStringLiteral("Hugging Face folder, .gguf file or llama2.c .bin."),
                           QStringLiteral("PATH")});
    addOptionOnce(parser, {QStringLiteral("device"), QStringLiteral("cpu (default) or cuda."), QStringLiteral("D")});
    addOptionOnce(parser, {QStringLiteral("dtype"), QStringLiteral("Compute dtype: f32 (default), f16 or bf16."),
                           QStringLiteral("T")});
    addOptionOnce(parser, {QStringLiteral("threads"),
                           QStringLiteral("CPU threads (default: auto, the usable CPUs; 1 for a small model)."),
                           QStringLiteral("N")});
    addOptionOnce(parser,
                  {QStringLiteral("fast-math"),
                   QStringLiteral("Labelled fast path, off by default: quantized weights take activations rounded "
                                  "to 8 bits (llama.cpp's arithmetic); faster, not exact.")});
}

ModelOptions modelOptions(const Invocation& inv) {
    ModelOptions options;
    if (inv.args.isSet(QStringLiteral("device")))
        options.device = inv.args.value(QStringLiteral("device"));
    if (inv.args.isSet(QStringLiteral("dtype")))
        options.dtype = inv.args.value(QStringLiteral("dtype"));
    options.threads = static_cast<int>(inv.integer(QStringLiteral("threads"), 0, 1, 1024));
    options.fastMath = inv.args.isSet(QStringLiteral("fast-math"));
    return options;
}

[[noreturn]] void fail(const Error& error) {
    if (error.kind == ErrorKind::BadInput)
        failBadInput(error.message);
    failInternal(error.message);
}

QJsonObject infoJson(const ModelInfo& info) {
    QJsonArray eos;
    for (const int id : info.eosTokenIds)
        eos.append(id);
    // Per file type: tensors, elements and bytes, the largest share first.
    QJsonArray weights;
    for (const WeightTypeTally& t : info.weightTypes)
        weights.append(QJsonObject{{QStringLiteral("type"), t.fileType},
                                   {QStringLiteral("tensors"), t.tensors},
                                   {QStringLiteral("elements"), static_cast<double>(t.elements)},
                                   {QStringLiteral("bytes"), static_cast<double>(t.bytes)}});
    // Keys and values of every layer at the full context, in the compute dtype (float32: 4 bytes).
    const int elementBytes = info.computeDtype == QLatin1String("f32") ? 4 : 2;
    const double kvBytes = 2.0 * info.layers * info.kvHeads * (info.heads > 0 ? info.dim / info.heads : 0) *
                           static_cast<double>(info.contextLength) * elementBytes;
    return {
        {QStringLiteral("path"), info.path},
        {QStringLiteral("format"), info.format},
        {QStringLiteral("architecture"), info.architecture},
        {QStringLiteral("layers"), info.layers},
        {QStringLiteral("heads"), info.heads},
        {QStringLiteral("kv_heads"), info.kvHeads},
        {QStringLiteral("dim"), info.dim},
        {QStringLiteral("hidden_dim"), info.hiddenDim},
        {QStringLiteral("vocab_size"), info.vocabSize},
        {QStringLiteral("context_length"), info.contextLength},
        {QStringLiteral("parameters"), static_cast<double>(info.parameters)},
        {QStringLiteral("file_dtype"), info.fileDtype},
        {QStringLiteral("compute_dtype"), info.computeDtype},
        {QStringLiteral("device"), info.device},
        {QStringLiteral("file_bytes"), static_cast<double>(info.fileBytes)},
        {QStringLiteral("content_hash"), info.contentHash},
        {QStringLiteral("bos_token_id"), info.bosTokenId},
        {QStringLiteral("eos_token_ids"), eos},
        {QStringLiteral("weights"), weights},
        {QStringLiteral("weights_as_stored"), info.storedWeights},
        {QStringLiteral("threads"), info.threads},
        {QStringLiteral("threads_auto"), info.threadsAutomatic},
        {QStringLiteral("threads_reason"), info.threadsReason},
        {QStringLiteral("kernel_path"), info.kernelPath},
        {QStringLiteral("fast_math"), info.fastMath},
        {QStringLiteral("weight_bytes_per_token"), static_cast<double>(info.weightBytesPerToken)},
        {QStringLiteral("resident_weight_bytes"), static_cast<double>(info.residentWeightBytes)},
        {QStringLiteral("kv_cache_bytes_at_context"), static_cast<double>(kvBytes)},
    };
}

int runInfo(const Invocation& inv) {
    const QString path =
        inv.args.isSet(QStringLiteral("model")) ? inv.args.value(QStringLiteral("model")) : bundledModelPath();
    if (isRemoteModelAddress(path)) { // a model another engine serves: what its server says of it
        Result<RemoteModel> remote = connectRemoteModel(path, inv.args.value(QStringLiteral("api-key")));
        if (!remote)
            fail(remote.error());
        inv.out << QJsonDocument(QJsonObject{{QStringLiteral("format"), QStringLiteral("remote")},
                                             {QStringLiteral("server"), remote->base.toString()},
                                             {QStringLiteral("engine"), remoteEngineName(remote->engine)},
                                             {QStringLiteral("model"), remote->modelId}})
                       .toJson(QJsonDocument::Compact)
                << '\n';
        return 0;
    }
    // From the headers only: `swb info` must be instant even for a model too large to load here.
    Result<ModelInfo> info = Model::inspect(path, modelOptions(inv));
    if (!info)
        fail(info.error());
    QJsonObject json = infoJson(info.value());
    const QString tokenizerPath = inv.args.value(QStringLiteral("tokenizer"));
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(path, tokenizerPath);
    if (tokenizer) {
        json[QStringLiteral("tokenizer")] = QJsonObject{{QStringLiteral("kind"), tokenizer.value()->kind()},
                                                        {QStringLiteral("vocab_size"), tokenizer.value()->vocabSize()}};
        if (tokenizer.value()->vocabSize() > info->vocabSize)
            inv.err << "swb: warning: the tokenizer has " << tokenizer.value()->vocabSize()
                    << " tokens but the model only " << info->vocabSize << '\n';
    } else if (!tokenizerPath.isEmpty()) {
        fail(tokenizer.error()); // asked for explicitly: its failure is the user's error
    } else {
        json[QStringLiteral("tokenizer")] = QJsonValue::Null; // e.g. a llama2.c .bin without --tokenizer
    }
    inv.out << QJsonDocument(json).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}

// --- bench decode ------------------------------------------------------------------------------------

// Writes a llama2.c version-1 checkpoint of deterministic pseudo-random weights (xorshift64*),
// streaming so that writing it needs no more memory than one chunk.
void writeRandomModel(const QString& path, const RandomShape& s, std::uint64_t seed) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        failBadInput(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    QByteArray header(256, '\0');
    const std::uint32_t magic = 0x616b3432;
    const std::int32_t version = 1;
    const std::int32_t fields[7] = {s.dim, s.hidden, s.layers, s.heads, s.heads, s.vocab, s.context};
    std::memcpy(header.data(), &magic, 4);
    std::memcpy(header.data() + 4, &version, 4);
    std::memcpy(header.data() + 8, fields, sizeof fields);
    header[36] = 1; // shared classifier
    bool ok = file.write(header) == header.size();
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    std::vector<float> chunk(1 << 20);
    const auto fill = [&](std::int64_t count, float scale, bool ones) {
        while (count > 0 && ok) {
            const std::size_t n =
                static_cast<std::size_t>(std::min<std::int64_t>(count, static_cast<std::int64_t>(chunk.size())));
            for (std::size_t i = 0; i < n; ++i) {
                state ^= state >> 12;
                state ^= state << 25;
                state ^= state >> 27;
                const std::uint64_t r = state * 0x2545F4914F6CDD1Dull;
                chunk[i] = ones ? 1.0f : (static_cast<float>(r >> 40) / 16777216.0f * 2.0f - 1.0f) * scale;
            }
            ok = file.write(reinterpret_cast<const char*>(chunk.data()), static_cast<qint64>(n * sizeof(float))) ==
                 static_cast<qint64>(n * sizeof(float));
            count -= static_cast<std::int64_t>(n);
        }
    };
    const std::int64_t dim = s.dim, hidden = s.hidden, layers = s.layers;
    const float inScale = 1.0f / std::sqrt(static_cast<float>(s.dim));
    fill(2 * layers * dim + dim, 0, true);                    // attention, ffn and final norms
    fill(static_cast<std::int64_t>(s.vocab) * dim, 1, false); // embedding (and classifier)
    fill(4 * layers * dim * dim, inScale, false);             // wq, wk, wv, wo
    fill(layers * hidden * dim, inScale, false);              // w1
    fill(layers * dim * hidden, 1.0f / std::sqrt(static_cast<float>(s.hidden)), false); // w2
    fill(layers * hidden * dim, inScale, false);                                        // w3
    if (!ok || !file.flush())
        failInternal(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
}

RandomShape parseRandomShape(const Invocation& inv) {
    RandomShape s;
    if (!inv.args.isSet(QStringLiteral("random-shape")))
        return s;
    const QStringList parts = inv.args.value(QStringLiteral("random-shape")).split(QLatin1Char(','));
    std::vector<int> v;
    for (const QString& p : parts) {
        bool ok = false;
        const int n = p.toInt(&ok);
        if (!ok || n <= 0)
            break;
        v.push_back(n);
    }
    if (v.size() != 6 || v[0] % v[2] != 0 || (v[0] / v[2]) % 2 != 0)
        failBadInput(
            QStringLiteral("--random-shape must be DIM,LAYERS,HEADS,HIDDEN,VOCAB,CONTEXT with DIM a multiple of "
                           "HEADS and an even head size, not '%1'")
                .arg(inv.args.value(QStringLiteral("random-shape"))));
    s = {v[0], v[1], v[2], 0, v[3], v[4], v[5]};
    return s;
}

// The machine's sustained read bandwidth: `threads` threads summing disjoint parts of a buffer far
// larger than any cache, best of several passes. Integer sums vectorize without reassociation doubts.
double measureReadBandwidth(int threads, std::size_t bytes) {
    const std::size_t words = bytes / sizeof(std::uint64_t);
    std::vector<std::uint64_t> buffer(words, 1); // written once, so every page is really backed
    double best = 0;
    std::vector<std::uint64_t> sums(static_cast<std::size_t>(threads));
    for (int pass = 0; pass < 5; ++pass) {
        const auto start = Clock::now();
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                const std::size_t begin = words * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads);
                const std::size_t end = words * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(threads);
                std::uint64_t a = 0, b = 0, c = 0, d = 0;
                std::size_t i = begin;
                for (; i + 4 <= end; i += 4) {
                    a += buffer[i];
                    b += buffer[i + 1];
                    c += buffer[i + 2];
                    d += buffer[i + 3];
                }
                for (; i < end; ++i)
                    a += buffer[i];
                sums[static_cast<std::size_t>(t)] = a + b + c + d;
            });
        for (std::thread& thread : pool)
            thread.join();
        const double s = seconds(start, Clock::now());
        best = std::max(best, static_cast<double>(words * sizeof(std::uint64_t)) / s / 1e9);
    }
    std::uint64_t total = 0;
    for (const std::uint64_t s : sums)
        total += s;
    if (total != words) // keeps the compiler from dropping the loads, and checks them
        failInternal(QStringLiteral("the bandwidth probe read wrong values"));
    return best;
}

// --write-random-model: writes the model asked for; true when that is all there is to do (no --model to bench,
// so the file written has been reported).
bool writeRequestedRandomModel(const Invocation& inv) {
    const QString target = inv.args.value(QStringLiteral("write-random-model"));
    RandomShape shape = parseRandomShape(inv);
    const auto seed = static_cast<std::uint64_t>(inv.integer(QStringLiteral("seed"), 1, 0, 1LL << 62));
    if (inv.args.isSet(QStringLiteral("kv-heads"))) {
        shape.kvHeads = static_cast<int>(inv.integer(QStringLiteral("kv-heads"), 0, 1, 1 << 16));
        if (shape.heads % shape.kvHeads != 0)
            failBadInput(QStringLiteral("--kv-heads must divide the %1 heads").arg(shape.heads));
    }
    if (inv.args.isSet(QStringLiteral("weight-type"))) {
        if (const QString error =
                writeRandomGguf(target, shape, inv.args.value(QStringLiteral("weight-type")).toLower(), seed);
            !error.isEmpty())
            failBadInput(error);
    } else {
        if (shape.kvHeads > 0 && shape.kvHeads != shape.heads)
            failBadInput(QStringLiteral("--kv-heads needs --weight-type (a GGUF model)"));
        writeRandomModel(target, shape, seed);
    }
    if (!inv.args.isSet(QStringLiteral("model"))) {
        inv.out << QJsonDocument(QJsonObject{{QStringLiteral("written"), QFileInfo(target).absoluteFilePath()},
                                             {QStringLiteral("bytes"), static_cast<double>(QFileInfo(target).size())}})
                       .toJson(QJsonDocument::Compact)
                << '\n';
        return true;
    }
    return false;
}

// A failed forward pass ends the bench.
void checkLogits(const Result<std::vector<float>>& r) {
    if (!r)
        fail(r.error());
}

// The tokenizer for the model at path (--tokenizer, or the one beside the model); its failure is fatal.
std::unique_ptr<Tokenizer> requireTokenizer(const Invocation& inv, const QString& path) {
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(path, inv.args.value(QStringLiteral("tokenizer")));
    if (!tokenizer)
        fail(tokenizer.error());
    return std::move(tokenizer.value());
}

QJsonArray stopTokenIds(const Generator& generator) {
    QJsonArray ends;
    for (TokenId id : generator.stopTokens())
        ends.append(id);
    return ends;
}

// The prompt prefilled, then greedy decode: seconds of each and every step's milliseconds.
struct Timing {
    double prefillSeconds = 0.0;
    double decodeSeconds = 0.0;
    std::vector<double> stepMs;
};

Timing measureDecode(Model& model, const std::vector<TokenId>& prompt, int decodeTokens) {
    Timing t;
    auto state = model.newState();
    const auto prefillStart = Clock::now();
    Result<std::vector<float>> logits = model.forward(*state, prompt);
    checkLogits(logits);
    t.prefillSeconds = seconds(prefillStart, Clock::now());
    const auto decodeStart = Clock::now();
    for (int i = 0; i < decodeTokens; ++i) {
        const std::vector<float>& row = logits.value();
        const TokenId next = static_cast<TokenId>(std::max_element(row.begin(), row.end()) - row.begin());
        const auto stepStart = Clock::now();
        logits = model.forward(*state, std::vector<TokenId>{next});
        checkLogits(logits);
        t.stepMs.push_back(seconds(stepStart, Clock::now()) * 1e3);
    }
    t.decodeSeconds = seconds(decodeStart, Clock::now());
    return t;
}

// Beam search from the same prompt for as many steps (end tokens banned, so it runs them all): its time
// per step against the single path's time per token above.
double measureBeamMsPerStep(const Invocation& inv, const QString& path, Model& model,
                            const std::vector<TokenId>& prompt, int decodeTokens, int beamCount, int& beamSteps) {
    double beamMsPerStep = 0.0;
    const std::unique_ptr<Tokenizer> tokenizer = requireTokenizer(inv, path);
    Generator generator(model, *tokenizer);
    QJsonArray ends = stopTokenIds(generator);
    GenerationRequest request;
    request.promptIds = prompt;
    request.usePromptIds = true;
    request.maxTokens = decodeTokens;
    request.strategy =
        Strategy::fromJson(
            QJsonObject{{QStringLiteral("decoder"), QJsonObject{{QStringLiteral("type"), QStringLiteral("beam")},
                                                                {QStringLiteral("beams"), beamCount}}},
                        {QStringLiteral("samplers"),
                         QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("banned_tokens")},
                                                {QStringLiteral("ids"), ends}}}}})
            .value();
    // The prefill is the same as the single path's: time the steps only.
    Clock::time_point firstStep;
    Result<BeamResult> beam = generator.beamSearch(request, [&](const BeamStep&) {
        if (beamSteps++ == 0)
            firstStep = Clock::now();
        return true;
    });
    if (!beam)
        fail(beam.error());
    if (beamSteps > 1)
        beamMsPerStep = seconds(firstStep, Clock::now()) * 1e3 / (beamSteps - 1);
    return beamMsPerStep;
}

// The amateur model's own greedy time per token on the same prompt; the model is unloaded on return.
double measureAmateurMsPerToken(const QString& amateurPath, const std::vector<TokenId>& prompt, int decodeTokens) {
    Result<std::unique_ptr<Model>> amateur = Model::load(amateurPath);
    if (!amateur)
        fail(amateur.error());
    auto amateurState = amateur.value()->newState();
    Result<std::vector<float>> row = amateur.value()->forward(*amateurState, prompt);
    checkLogits(row);
    const auto amateurStart = Clock::now();
    for (int i = 0; i < decodeTokens; ++i) {
        const TokenId next = static_cast<TokenId>(std::max_element(row->begin(), row->end()) - row->begin());
        row = amateur.value()->forward(*amateurState, std::vector<TokenId>{next});
        checkLogits(row);
    }
    const double amateurMsPerToken = seconds(amateurStart, Clock::now()) * 1e3 / decodeTokens;
    amateur.value().reset();
    return amateurMsPerToken;
}

// Contrastive decoding (greedy, end tokens banned) against the amateur at amateurPath: its time per step.
double measureContrastiveMsPerStep(const Invocation& inv, const QString& path, Model& model,
                                   const std::vector<TokenId>& prompt, int decodeTokens, const QString& amateurPath) {
    double contrastiveMsPerStep = 0.0;
    const std::unique_ptr<Tokenizer> tokenizer = requireTokenizer(inv, path);
    Generator generator(model, *tokenizer);
    GenerationRequest request;
    request.promptIds = prompt;
    request.usePromptIds = true;
    request.maxTokens = decodeTokens;
    request.traceLevel = TraceLevel::None;
    QJsonArray ends = stopTokenIds(generator);
    Result<Strategy> strategy = Strategy::fromJson(QJsonObject{
        {QStringLiteral("decoder"), QJsonObject{{QStringLiteral("type"), QStringLiteral("contrastive_decoding")},
                                                {QStringLiteral("amateur"), amateurPath}}},
        {QStringLiteral("samplers"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("banned_tokens")},
                                                            {QStringLiteral("ids"), ends}},
                                                QJsonObject{{QStringLiteral("type"), QStringLiteral("greedy")}}}}});
    if (!strategy)
        fail(strategy.error());
    request.strategy = strategy.value();
    int steps = 0;
    Clock::time_point firstStep;
    Result<GenerationResult> generated = generator.generate(request, [&](const GeneratedStep&) {
        if (steps++ == 0)
            firstStep = Clock::now();
        return true;
    });
    if (!generated)
        fail(generated.error());
    if (steps > 1)
        contrastiveMsPerStep = seconds(firstStep, Clock::now()) * 1e3 / (steps - 1);
    return contrastiveMsPerStep;
}

// Batched decode with --batch N[,N…]: N sequences, each prefilled with the same prompt, decoding together in
// one forward pass a step (Compare's batches, the server's continuous batching); aggregate tokens/s
// against the single path's.
QJsonArray measureBatches(const Invocation& inv, Model& model, const std::vector<TokenId>& prompt, int vocabSize,
                          int decodeTokens, double decodeSeconds) {
    QJsonArray batches;
    for (const QString& item : inv.args.value(QStringLiteral("batch")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = item.trimmed().toInt(&ok);
        if (!ok || n < 1 || n > 1024)
            failBadInput(
                QStringLiteral("--batch takes sequence counts from 1 to 1024 separated by commas, not '%1'").arg(item));
        std::vector<std::unique_ptr<Model::State>> owned;
        std::vector<Model::State*> states;
        std::vector<TokenId> next;
        for (int i = 0; i < n; ++i) {
            owned.push_back(model.newState());
            states.push_back(owned.back().get());
            Result<std::vector<float>> row = model.forward(*owned.back(), prompt);
            checkLogits(row);
            next.push_back(static_cast<TokenId>(std::max_element(row->begin(), row->end()) - row->begin()));
        }
        const auto batchStart = Clock::now();
        for (int step = 0; step < decodeTokens; ++step) {
            Result<std::vector<float>> rows = model.forwardBatch(states, next);
            checkLogits(rows);
            for (int i = 0; i < n; ++i) {
                const auto begin = rows->begin() + static_cast<std::ptrdiff_t>(i) * vocabSize;
                next[static_cast<std::size_t>(i)] =
                    static_cast<TokenId>(std::max_element(begin, begin + vocabSize) - begin);
            }
        }
        const double tokS = static_cast<double>(n) * decodeTokens / seconds(batchStart, Clock::now());
        batches.append(QJsonObject{
            {QStringLiteral("sequences"), n},
            {QStringLiteral("tok_s"), std::round(tokS * 100) / 100},
            {QStringLiteral("vs_single"), std::round(tokS / (decodeTokens / decodeSeconds) * 1000) / 1000}});
    }
    return batches;
}

// Everything bench decode measured, for its report.
struct DecodeBench {
    ModelInfo info;
    int promptTokens = 0;
    int decodeTokens = 0;
    std::int64_t baselineRss = 0;
    double loadSeconds = 0.0;
    Timing idle;
    int contenders = 0;
    Timing contended;
    std::int64_t peakRss = 0, anonRss = 0, fileRss = 0;
    int beamCount = 0;
    double beamMsPerStep = 0.0;
    int beamSteps = 0;
    QString amateurPath;
    double amateurMsPerToken = 0.0, contrastiveMsPerStep = 0.0;
    QJsonArray batches;
    double deviceCopyGbs = 0.0;
    double machineGbs = 0.0;
};

double roundTo(double v, int digits) {
    const double f = std::pow(10.0, digits);
    return std::round(v * f) / f;
}

QJsonObject decodeBenchJson(const DecodeBench& b) {
    const ModelInfo& info = b.info;
    const int threads = info.threads;
    const int promptTokens = b.promptTokens, decodeTokens = b.decodeTokens;
    const double prefillSeconds = b.idle.prefillSeconds, decodeSeconds = b.idle.decodeSeconds;
    const std::int64_t peakRss = b.peakRss, baselineRss = b.baselineRss;
    std::vector<double> sorted = b.idle.stepMs;
    std::sort(sorted.begin(), sorted.end());
    const double decodeTokS = decodeTokens / decodeSeconds;
    const double effectiveGbs = static_cast<double>(info.weightBytesPerToken) * decodeTokS / 1e9;
    const QJsonObject json{
        {QStringLiteral("mode"), QStringLiteral("decode")},
        {QStringLiteral("model"), info.path},
        {QStringLiteral("format"), info.format},
        {QStringLiteral("architecture"), info.architecture},
        {QStringLiteral("parameters"), static_cast<double>(info.parameters)},
        {QStringLiteral("file_dtype"), info.fileDtype},
        {QStringLiteral("compute_dtype"), info.computeDtype},
        {QStringLiteral("device"), info.device},
        {QStringLiteral("kernel_path"), info.kernelPath},
        {QStringLiteral("fast_math"), info.fastMath},
        {QStringLiteral("threads"), threads},
        {QStringLiteral("threads_auto"), info.threadsAutomatic},
        {QStringLiteral("threads_reason"), info.threadsReason},
        {QStringLiteral("prompt_tokens"), promptTokens},
        {QStringLiteral("decode_tokens"), decodeTokens},
        {QStringLiteral("load_s"), roundTo(b.loadSeconds, 3)},
        {QStringLiteral("prefill_tok_s"), roundTo(promptTokens / prefillSeconds, 2)},
        {QStringLiteral("decode_tok_s"), roundTo(decodeTokS, 2)},
        {QStringLiteral("ms_per_token"), roundTo(decodeSeconds * 1e3 / decodeTokens, 3)},
        {QStringLiteral("ms_per_token_median"), roundTo(sorted[sorted.size() / 2], 3)},
        {QStringLiteral("model_bytes"), static_cast<double>(info.fileBytes)},
        {QStringLiteral("weight_bytes_per_token"), static_cast<double>(info.weightBytesPerToken)},
        {QStringLiteral("effective_gb_s"), roundTo(effectiveGbs, 3)},
        {QStringLiteral("machine_read_gb_s"), roundTo(b.machineGbs, 3)},
        {QStringLiteral("bandwidth_fraction"), roundTo(effectiveGbs / b.machineGbs, 3)},
        {QStringLiteral("peak_rss_bytes"), static_cast<double>(peakRss)},
        {QStringLiteral("peak_rss_over_file"),
         roundTo(static_cast<double>(peakRss) / static_cast<double>(info.fileBytes), 3)},
        {QStringLiteral("baseline_rss_bytes"), static_cast<double>(baselineRss)},
        {QStringLiteral("rss_anon_bytes"), static_cast<double>(b.anonRss)},
        {QStringLiteral("rss_file_bytes"), static_cast<double>(b.fileRss)},
        {QStringLiteral("model_rss_bytes"), static_cast<double>(peakRss - baselineRss)},
        {QStringLiteral("model_rss_over_file"),
         roundTo(static_cast<double>(peakRss - baselineRss) / static_cast<double>(info.fileBytes), 3)},
    };
    QJsonObject out = json;
    if (b.beamCount > 0) {
        out.insert(QStringLiteral("beams"), b.beamCount);
        out.insert(QStringLiteral("beam_steps"), b.beamSteps);
        out.insert(QStringLiteral("beam_ms_per_step"), roundTo(b.beamMsPerStep, 3));
        out.insert(QStringLiteral("beam_step_vs_single_path"),
                   roundTo(b.beamMsPerStep / (decodeSeconds * 1e3 / decodeTokens), 3));
    }
    if (!b.batches.isEmpty())
        out.insert(QStringLiteral("batched_decode"), b.batches);
    if (b.contenders > 0) {
        const double loadedTokS = decodeTokens / b.contended.decodeSeconds;
        out.insert(QStringLiteral("contended"),
                   QJsonObject{{QStringLiteral("busy_processes"), b.contenders},
                               {QStringLiteral("prefill_tok_s"), roundTo(promptTokens / b.contended.prefillSeconds, 2)},
                               {QStringLiteral("decode_tok_s"), roundTo(loadedTokS, 2)},
                               {QStringLiteral("decode_vs_idle"), roundTo(loadedTokS / decodeTokS, 3)}});
    }
    if (b.deviceCopyGbs > 0) {
        // Bytes read (a copy also writes as many): what decode's weight reads are measured against.
        out.insert(QStringLiteral("device_copy_read_gb_s"), roundTo(b.deviceCopyGbs, 1));
        out.insert(QStringLiteral("device_bandwidth_fraction"), roundTo(effectiveGbs / b.deviceCopyGbs, 3));
    }
    if (!b.amateurPath.isEmpty()) {
        const double expertMs = decodeSeconds * 1e3 / decodeTokens;
        out.insert(QStringLiteral("amateur_ms_per_token"), roundTo(b.amateurMsPerToken, 3));
        out.insert(QStringLiteral("contrastive_ms_per_step"), roundTo(b.contrastiveMsPerStep, 3));
        out.insert(QStringLiteral("contrastive_vs_expert_plus_amateur"),
                   roundTo(b.contrastiveMsPerStep / (expertMs + b.amateurMsPerToken), 3));
    }
    return out;
}

int runBenchDecode(const Invocation& inv) {
    if (inv.args.isSet(QStringLiteral("write-random-model")) && writeRequestedRandomModel(inv))
        return 0;
    const QString path = inv.required(QStringLiteral("model"));
    refuseRemoteModel(path);
    const ModelOptions options = modelOptions(inv);
    DecodeBench b;
    b.decodeTokens = static_cast<int>(inv.integer(QStringLiteral("tokens"), 128, 1, 1 << 20));
    b.promptTokens = static_cast<int>(inv.integer(QStringLiteral("prompt-tokens"), 32, 1, 1 << 20));
    const int decodeTokens = b.decodeTokens, promptTokens = b.promptTokens;

    // What the process holds before the model: libtorch and its dependencies (in Debian's build, OpenCV and
    // some 280 other libraries) take well over 100 MB of their own; the model's share is what comes on top.
    b.baselineRss = processMemory().resident;
    const auto loadStart = Clock::now();
    Result<std::unique_ptr<Model>> loaded = Model::load(path, options);
    if (!loaded)
        fail(loaded.error());
    Model& model = *loaded.value();
    b.loadSeconds = seconds(loadStart, Clock::now());
    for (const QString& warning : model.warnings())
        inv.err << "swb: warning: " << warning << '\n';
    b.info = model.info();
    const ModelInfo& info = b.info;
    if (promptTokens + decodeTokens > info.contextLength)
        failBadInput(QStringLiteral("--prompt-tokens %1 plus --tokens %2 exceed the model's context length of %3")
                         .arg(promptTokens)
                         .arg(decodeTokens)
                         .arg(info.contextLength));

    // A fixed spread of ids, the same on every run.
    std::vector<TokenId> prompt;
    for (int i = 0; i < promptTokens; ++i)
        prompt.push_back(static_cast<TokenId>((static_cast<std::int64_t>(i) * 7919 + 3) % info.vocabSize));
    {
        // Warm-up: faults the mapped weights in and lets the allocators settle, as any real session has.
        auto warm = model.newState();
        checkLogits(model.forward(*warm, std::vector<TokenId>{prompt.front()}));
    }
    b.idle = measureDecode(model, prompt, decodeTokens);
    // --contend N: the same again beside N busy processes of our own (a user's desktop), in the same run.
    b.contenders = static_cast<int>(inv.integer(QStringLiteral("contend"), 0, 0, 64));
    if (b.contenders > 0) {
        BusyProcesses busy(b.contenders, 900);
        b.contended = measureDecode(model, prompt, decodeTokens);
    }
    const ProcessMemory memory = processMemory();
    // The peak and what makes it up: the decode loop is flat.
    b.peakRss = memory.peak;
    b.anonRss = memory.anonymous;
    b.fileRss = memory.fileBacked;

    b.beamCount = static_cast<int>(inv.integer(QStringLiteral("beams"), 0, 0, 256));
    if (b.beamCount > 0)
        b.beamMsPerStep = measureBeamMsPerStep(inv, path, model, prompt, decodeTokens, b.beamCount, b.beamSteps);
    // Contrastive decoding with --amateur: its time per step against the expert's (above) plus the amateur's
    // own time per token on the same tokens.
    b.amateurPath = inv.args.value(QStringLiteral("amateur"));
    if (!b.amateurPath.isEmpty()) {
        b.amateurMsPerToken = measureAmateurMsPerToken(b.amateurPath, prompt, decodeTokens);
        b.contrastiveMsPerStep = measureContrastiveMsPerStep(inv, path, model, prompt, decodeTokens, b.amateurPath);
    }
    b.batches = measureBatches(inv, model, prompt, info.vocabSize, decodeTokens, b.idle.decodeSeconds);
    // On a GPU the ceiling is the device's memory, not the host's: a device-to-device copy in the same run.
    b.deviceCopyGbs = info.device == QLatin1String("cuda") ? model.measureCopyBandwidth(1ULL << 31) : 0.0;
    loaded.value().reset();

    // After the model's peak RSS is taken, so the probe's buffer does not count against the model.
    const auto probeMegabytes =
        static_cast<std::size_t>(inv.integer(QStringLiteral("probe-megabytes"), 512, 16, 1 << 16));
    b.machineGbs = measureReadBandwidth(info.threads, probeMegabytes << 20);

    inv.out << QJsonDocument(decodeBenchJson(b)).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}

} // namespace

std::vector<Subcommand> modelSubcommands() {
    Subcommand info{
        QStringLiteral("info"),
        QStringLiteral(
            "swb info --model PATH [--tokenizer PATH] [--device cpu|cuda] [--dtype f32|f16|bf16] [--fast-math]"),
        QStringLiteral("Describe a model (format, architecture, shape, parameters, dtype, size) as one JSON object."),
        [](QCommandLineParser& parser) {
            declareModelOptions(parser);
            parser.addOption(
                {QStringLiteral("tokenizer"),
                 QStringLiteral("Tokenizer to describe instead of the model's own (tok.bin for llama2.c)."),
                 QStringLiteral("PATH")});
            parser.addOption(
                {QStringLiteral("api-key"),
                 QStringLiteral("With --model http(s)://HOST:PORT/v1 (a model another engine serves): its API key."),
                 QStringLiteral("KEY")});
        },
        runInfo};
    return {info};
}

std::vector<BenchMode> modelBenchModes() {
    BenchMode decode{
        QStringLiteral("decode"),
        QStringLiteral(
            "prefill and decode tok/s, ms/token, effective GB/s vs the machine's read bandwidth, peak RSS "
            "--model PATH [--threads N] [--tokens 128] [--prompt-tokens 32] [--beams N] [--fast-math] [--contend N]; "
            "--write-random-model PATH "
            "writes the ~110M-parameter test model"),
        [](QCommandLineParser& parser) {
            declareModelOptions(parser);
            addOptionOnce(parser, {QStringLiteral("tokens"), QStringLiteral("decode: tokens to decode (default 128)."),
                                   QStringLiteral("N")});
            addOptionOnce(parser,
                          {QStringLiteral("prompt-tokens"),
                           QStringLiteral("decode: prompt length prefilled first (default 32)."), QStringLiteral("N")});
            addOptionOnce(parser,
                          {QStringLiteral("contend"),
                           QStringLiteral("decode: measure again beside N busy processes of its own (default 0)."),
                           QStringLiteral("N")});
            addOptionOnce(parser,
                          {QStringLiteral("write-random-model"),
                           QStringLiteral("decode: write a random Llama-shaped llama2.c model (768 dim, 12 layers, "
                                          "12 heads, hidden 2048, vocab 32000, f32) to PATH first."),
                           QStringLiteral("PATH")});
            addOptionOnce(parser,
                          {QStringLiteral("random-shape"),
                           QStringLiteral("decode: DIM,LAYERS,HEADS,HIDDEN,VOCAB,CONTEXT of that model instead."),
                           QStringLiteral("SHAPE")});
            addOptionOnce(parser,
                          {QStringLiteral("weight-type"),
                           QStringLiteral("decode: write that model as GGUF with every matrix of this ggml type (f32, "
                                          "f16, bf16, q8_0, q4_0, q4_1, q5_0, q5_1, q2_k, q3_k, q4_k, q5_k, q6_k)."),
                           QStringLiteral("TYPE")});
            addOptionOnce(parser, {QStringLiteral("kv-heads"),
                                   QStringLiteral("decode: key/value heads of that GGUF model (default: as many as "
                                                  "heads)."),
                                   QStringLiteral("N")});
            addOptionOnce(parser,
                          {QStringLiteral("batch"),
                           QStringLiteral("decode: also time N sequences decoding together in one forward pass a "
                                          "step, for each N of a comma-separated list (e.g. 8,32)."),
                           QStringLiteral("N[,N...]")});
            addOptionOnce(parser, {QStringLiteral("beams"),
                                   QStringLiteral("decode: also time a beam search of N beams over the same steps, per "
                                                  "step against the single path (needs the model's tokenizer)."),
                                   QStringLiteral("N")});
            addOptionOnce(parser, {QStringLiteral("amateur"),
                                   QStringLiteral("decode: also time contrastive decoding with this amateur model, per "
                                                  "step against the expert's plus the amateur's own."),
                                   QStringLiteral("PATH")});
            addOptionOnce(parser, {QStringLiteral("tokenizer"),
                                   QStringLiteral("decode: tokenizer for --beams when the model needs one."),
                                   QStringLiteral("PATH")});
            addOptionOnce(parser, {QStringLiteral("probe-megabytes"),
                                   QStringLiteral("decode: size of the bandwidth probe's buffer in MiB (default 512)."),
                                   QStringLiteral("N")});
            addOptionOnce(parser,
                          {QStringLiteral("seed"), QStringLiteral("decode: seed of the random model (default 1)."),
                           QStringLiteral("S")});
        },
        runBenchDecode};
    return {decode};
}

} // namespace swb::cli
