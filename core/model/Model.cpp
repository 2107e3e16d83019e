// The decoder: one implementation for the Llama and GPT-2 block families, on libtorch (ATen).
// With training/DemoTrainer.cpp, the only translation units of core that include torch headers; keep it so the
// rest of the project compiles fast.
#include "model/Model.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <exception>
#include <numbers>
#include <set>

#include <dlfcn.h>

#include <QFileInfo>

// Qt's `slots` macro collides with an identifier in ATen's headers.
#pragma push_macro("slots")
#undef slots
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>
#pragma pop_macro("slots")

#include "model/ModelConfig.h"
#include "model/ModelWeights.h"
#include "model/ThreadPolicy.h"
#include "model/ThreadPool.h"
#include "model/kernels/WeightType.h"

namespace swb {

namespace {

// Up to this many rows, one matrix-vector product per row beats a matrix-matrix product: OpenBLAS
// streams the weights at memory bandwidth in gemv but reaches only about a third of it in a gemm with
// few rows. Measured on 2048x768 float32 weights, one thread: 3 gemv 48 ms vs gemm 70 ms; at 4 rows
// gemm wins (49 vs 59 ms).
constexpr std::int64_t kRowsPerGemv = 3;
constexpr int kInitialCacheCapacity = 128;

// A weight matrix kept as the file stores it, for the CPU kernels (model/kernels): `rows` rows of `columns`
// elements, rowBytes apart. `holder` keeps alive a copy made at load (a transposed or expanded matrix).
struct StoredMatrix {
    kernels::WeightType type = kernels::WeightType::F32;
    const std::uint8_t* data = nullptr;
    std::int64_t rows = 0;
    std::int64_t columns = 0;
    std::size_t rowBytes = 0;
    bool fast = false; // ModelOptions::fastMath, for a type that has the fast kernel
    at::Tensor holder;
    bool defined() const { return data != nullptr; }
    const std::uint8_t* row(std::int64_t r) const { return data + static_cast<std::size_t>(r) * rowBytes; }
};

struct Linear {
    at::Tensor weight;   // [out, in], possibly a transposed view (the libtorch path)
    StoredMatrix stored; // the CPU kernels' path
    at::Tensor bias;     // [out] or undefined
};

struct Layer {
    at::Tensor attnNorm, attnNormBias, ffnNorm, ffnNormBias;
    Linear q, k, v, qkv, o;
    Linear gate, up, down;
    Linear gateUp; // gate and up as one matrix (fewerKernels)
};

QString dtypeName(at::ScalarType type) {
    switch (type) {
    case at::kHalf:
        return QStringLiteral("f16");
    case at::kBFloat16:
        return QStringLiteral("bf16");
    default:
        return QStringLiteral("f32");
    }
}

// libtorch's set_num_threads covers its own (OpenMP) kernels; the BLAS that runs the products is a
// separate library with its own pool. OpenBLAS exports a setter; find it without linking to it.
void setBlasThreads(int threads) {
    using Setter = void (*)(int);
    if (auto setter = reinterpret_cast<Setter>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
        setter(threads);
}

// Up to this many activation rows the kernels read each weight row once for all of them (decode, batched
// decode, short prompts); more (prefill) multiply tiles of weight rows, expanded to float32 once, with the
// BLAS. Expanding a quantized matrix costs about what the kernels spend on 32 rows (measured on a Q4_K
// 1.1B model, 2 cores: 32 rows 872 ms in the kernels, 33 rows 909 ms with the BLAS, 64 rows 1760 against
// 1165 ms), so quantized weights stay with the kernels longer. Fast-math weights take the integer kernels
// at any row count (applyStored).
constexpr std::int64_t kRowsPerKernel = 8;
constexpr std::int64_t kRowsPerKernelQuantized = 32;
constexpr std::int64_t kTileRows = 128;

// x [rows, columns] (float32, contiguous) times the stored matrix's transpose: [rows, matrix rows], on up to
// `threads` threads of the kernels' pool.
at::Tensor applyStored(const StoredMatrix& w, const at::Tensor& x, int threads) {
    ThreadPool& pool = ThreadPool::instance();
    const std::int64_t rows = x.size(0);
    const std::int64_t columns = w.columns;
    const at::Tensor input = x.contiguous();
    const float* xs = input.data_ptr<float>();
    at::Tensor out = at::empty({rows, w.rows}, at::kFloat);
    float* y = out.data_ptr<float>();
    const kernels::WeightTraits& traits = kernels::traits(w.type);
    const std::int64_t kernelRows = traits.blockElements > 1 ? kRowsPerKernelQuantized : kRowsPerKernel;
    if (w.fast) {
        // Each activation row rounded to 8 bits once, for every weight row. Every row count takes the
        // integer kernels (a prompt too: about twice the BLAS's float32 rate per row on the 1.1B Q4_K
        // model), so a row's result never depends on how many rows came with it. Up to 32 rows at a time
        // (their rounded activations stay in the core's cache while the weights stream past).
        const std::int64_t blocks = columns / traits.blockElements;
        std::vector<std::int8_t> xq(static_cast<std::size_t>(rows * columns));
        std::vector<float> xd(static_cast<std::size_t>(rows * blocks));
        std::vector<std::int16_t> xqSums(static_cast<std::size_t>(rows * (columns / 16)));
        for (std::int64_t r = 0; r < rows; ++r)
            kernels::quantizeActivations(xs + r * columns, columns, traits.blockElements, xq.data() + r * columns,
                                         xd.data() + r * blocks, xqSums.data() + r * (columns / 16));
        for (std::int64_t first = 0; first < rows; first += kRowsPerKernelQuantized) {
            const std::int64_t count = std::min(kRowsPerKernelQuantized, rows - first);
            pool.parallelFor(w.rows, 32, threads, [&](std::int64_t begin, std::int64_t end) {
                float results[kRowsPerKernelQuantized];
                for (std::int64_t o = begin; o < end; ++o) {
                    traits.dotFastBatch(w.row(o), xq.data() + first * columns, xd.data() + first * blocks,
                                        xqSums.data() + first * (columns / 16), static_cast<int>(count), columns,
                                        results);
                    for (std::int64_t r = 0; r < count; ++r)
                        y[(first + r) * w.rows + o] = results[r];
                }
            });
        }
        return out;
    }
    if (rows <= kernelRows) {
        std::vector<float> sums;
        if (traits.needsSums) {
            sums.resize(static_cast<std::size_t>(rows * (columns / 16)));
            for (std::int64_t r = 0; r < rows; ++r)
                kernels::groupSums16(xs + r * columns, columns, sums.data() + r * (columns / 16));
        }
        const float* sumData = sums.empty() ? nullptr : sums.data();
        pool.parallelFor(w.rows, 32, threads, [&](std::int64_t begin, std::int64_t end) {
            float results[kRowsPerKernelQuantized];
            for (std::int64_t o = begin; o < end; ++o) {
                traits.dotBatch(w.row(o), xs, sumData, columns, static_cast<int>(rows), columns, results);
                for (std::int64_t r = 0; r < rows; ++r)
                    y[r * w.rows + o] = results[r];
            }
        });
        return out;
    }
    // Each thread expands its own tiles and multiplies them with a one-threaded BLAS call: one pool does all
    // the work, with no BLAS threads competing with it.
    const std::int64_t tiles = (w.rows + kTileRows - 1) / kTileRows;
    pool.parallelFor(tiles, 1, threads, [&](std::int64_t begin, std::int64_t end) {
        c10::InferenceMode inference; // thread-local: the workers need it too
        at::Tensor tile = at::empty({kTileRows, columns}, at::kFloat);
        for (std::int64_t i = begin; i < end; ++i) {
            const std::int64_t first = i * kTileRows;
            const std::int64_t count = std::min(kTileRows, w.rows - first);
            float* t = tile.data_ptr<float>();
            for (std::int64_t r = 0; r < count; ++r)
                traits.toFloat(w.row(first + r), t + r * columns, columns);
            out.narrow(1, first, count).copy_(at::mm(input, tile.narrow(0, 0, count).t()));
        }
    });
    return out;
}

at::Tensor applyLinear(const Linear& linear, const at::Tensor& x, int threads) {
    if (linear.stored.defined()) {
        at::Tensor y = applyStored(linear.stored, x, threads);
        return linear.bias.defined() ? y.add_(linear.bias) : y;
    }
    const std::int64_t rows = x.size(0);
    if (rows <= kRowsPerGemv && x.is_cpu()) { // BLAS matrix-vector products outrun small matrix products
        std::vector<at::Tensor> out;
        out.reserve(static_cast<std::size_t>(rows));
        for (std::int64_t r = 0; r < rows; ++r) {
            const at::Tensor row = x[r];
            out.push_back(linear.bias.defined() ? at::addmv(linear.bias, linear.weight, row)
                                                : at::mv(linear.weight, row));
        }
        return rows == 1 ? out.front().unsqueeze(0) : at::stack(out);
    }
    return at::linear(x, linear.weight, linear.bias);
}

struct Resolved {
    at::Device device = at::kCPU;
    at::ScalarType dtype = at::kFloat;
    bool fastMath = false;
    int threads = 0; // ModelOptions::threads: 0 automatic
    QStringList warnings;
};

Result<Resolved> resolveOptions(const ModelOptions& options) {
    Resolved r;
    r.fastMath = options.fastMath;
    r.threads = options.threads;
    if (options.device == QLatin1String("cuda")) {
        if (at::hasCUDA())
            r.device = at::Device(at::kCUDA, 0);
        else
            r.warnings << QStringLiteral(
                "CUDA was requested but this libtorch build has no CUDA support; running on the CPU");
    } else if (options.device != QLatin1String("cpu")) {
        return Error::badInput(QStringLiteral("unknown device '%1' (expected cpu or cuda)").arg(options.device));
    }
    if (options.dtype == QLatin1String("f32")) {
        r.dtype = at::kFloat;
    } else if (options.dtype == QLatin1String("bf16")) {
        r.dtype = at::kBFloat16;
    } else if (options.dtype == QLatin1String("f16")) {
        // libtorch 1.13 has no float16 matrix products or activations on the CPU.
        if (r.device.is_cuda()) {
            r.dtype = at::kHalf;
        } else {
            r.dtype = at::kFloat;
            r.warnings << QStringLiteral("f16 is not supported on the CPU by this libtorch; computing in f32");
        }
    } else {
        return Error::badInput(QStringLiteral("unknown dtype '%1' (expected f32, f16 or bf16)").arg(options.dtype));
    }
    if (options.threads < 0)
        return Error::badInput(QStringLiteral("the thread count must be positive, not %1").arg(options.threads));
    return r;
}

std::int64_t elementBytes(at::ScalarType type) {
    return type == at::kFloat ? 4 : 2;
}

// On the CPU in float32 the matrices stay as stored and our kernels multiply them.
bool usesKernels(const Resolved& resolved) {
    return !resolved.device.is_cuda() && resolved.dtype == at::kFloat;
}

ModelInfo describe(const QString& path, const ModelWeights& weights, const Resolved& resolved) {
    const ModelConfig& c = weights.config();
    ModelInfo info;
    info.path = QFileInfo(path).absoluteFilePath();
    info.format = weights.format();
    info.architecture = c.architecture;
    info.layers = c.layers;
    info.heads = c.heads;
    info.kvHeads = c.kvHeads;
    info.dim = c.dim;
    info.hiddenDim = c.hiddenDim;
    info.vocabSize = c.vocabSize;
    info.contextLength = c.contextLength;
    info.parameters = weights.parameterCount();
    info.fileDtype = weights.fileDtype();
    info.computeDtype = dtypeName(resolved.dtype);
    info.device = resolved.device.is_cuda() ? QStringLiteral("cuda") : QStringLiteral("cpu");
    info.fileBytes = weights.fileBytes();
    info.bosTokenId = c.bosTokenId;
    info.eosTokenIds = c.eosTokenIds;
    // Per decode step every weight is read once except the embedding table (one row) and, for GPT-2,
    // the position table (one row). A tied classifier reads the embedding table in full. The kernels read
    // the weights as stored; the libtorch path reads them in the compute dtype.
    const bool stored = usesKernels(resolved);
    const auto bytesOf = [&](const ModelWeight& w, std::int64_t elements) {
        return stored ? static_cast<std::int64_t>(static_cast<double>(w.bytes) * elements / w.elements())
                      : elements * elementBytes(resolved.dtype);
    };
    info.weightTypes = weights.typeTallies();
    std::int64_t bytes = 0;
    for (const WeightTypeTally& t : info.weightTypes)
        bytes += stored ? t.bytes : t.elements * elementBytes(resolved.dtype);
    if (const ModelWeight* embed = weights.find("embed")) {
        bytes -= bytesOf(*embed, embed->elements() - c.dim);
        if (c.tiedEmbeddings)
            bytes += bytesOf(*embed, embed->elements());
    }
    if (const ModelWeight* pos = weights.find("pos_embed"))
        bytes -= bytesOf(*pos, pos->elements() - c.dim);
    info.weightBytesPerToken = bytes;
    const ThreadChoice threads = chooseThreads(resolved.threads, bytes, !resolved.device.is_cuda());
    info.threads = threads.threads;
    info.threadsAutomatic = threads.automatic;
    info.threadsReason = threads.reason;
    info.storedWeights = stored;
    info.kernelPath =
        stored ? QLatin1String(kernels::kernelPathName(kernels::kernelPath())) : QLatin1String("libtorch");
    // Fast math reaches the matrices the kernels read as stored in a type with a fast kernel (not
    // llama2.c's int8 groups, expanded to float32 at load); Model::load confirms it from the matrices.
    for (const WeightTypeTally& t : info.weightTypes)
        for (int k = 0; k <= static_cast<int>(kernels::WeightType::Q6_K); ++k) {
            const kernels::WeightTraits& traits = kernels::traits(static_cast<kernels::WeightType>(k));
            if (stored && resolved.fastMath && traits.dotFast && t.fileType == QLatin1String(traits.name) &&
                weights.format() != QLatin1String("llama2c"))
                info.fastMath = true;
        }
    // Resident: the file's pages for weights read in place; float32 for those expanded at load (llama2.c's
    // int8 groups); on the libtorch path, every weight in the compute dtype.
    for (const WeightTypeTally& t : info.weightTypes) {
        const bool expanded = weights.format() == QLatin1String("llama2c") && t.fileType != QLatin1String("f32");
        info.residentWeightBytes +=
            stored ? (expanded ? t.elements * 4 : t.bytes) : t.elements * elementBytes(resolved.dtype);
    }
    return info;
}

} // namespace

// --- state -------------------------------------------------------------------------------------------

struct Model::State::Cache {
    const Model::Impl* owner = nullptr;
    int length = 0;
    int capacity = 0;
    std::vector<at::Tensor> keys;   // per layer [kvHeads, capacity, headDim]
    std::vector<at::Tensor> values; // per layer, the same
};

Model::State::State()
    : m_cache(std::make_unique<Cache>()) {}
Model::State::~State() = default;

// --- the model ---------------------------------------------------------------------------------------

struct Model::Impl {
    ModelInfo info;
    QStringList warnings;
    ModelConfig config;
    at::Device device = at::kCPU;
    at::ScalarType dtype = at::kFloat;

    // CPU in float32: matrices stay as stored and the kernels multiply them. Else (CUDA, or another compute
    // dtype) every weight becomes a tensor of the compute dtype on the device.
    bool useKernels = false;
    // Where every kernel costs a launch (~5-10 µs on a GPU, which a 1B model's decode step spends more time on
    // than on reading its weights), do the same arithmetic in fewer kernels: q, k and v (and gate and up) as
    // one matrix each, RoPE on q and k at once, and decode steps of several sequences attending in one batched
    // product over their caches stacked (padded to the longest, masked) instead of one sequence after another.
    // On the CPU the separate products read memory-mapped weights in place and the loop costs only arithmetic,
    // so it keeps them. SWB_FEWER_KERNELS=1 turns it on anywhere (tests).
    bool fastMath = false; // ModelOptions::fastMath
    bool fewerKernels = false;
    int threads = 1;          // the kernels' products run on this many threads of ThreadPool (ThreadChoice)
    at::Tensor embed;         // [vocab, dim] (the libtorch path)
    StoredMatrix embedStored; // the same, as stored (the kernels' path)
    at::Tensor posEmbed;      // GPT-2: [context, dim]
    at::Tensor norm, normBias;
    Linear output;
    std::vector<Layer> layers;
    at::Tensor invFreq; // RoPE inverse frequencies [headDim / 2], float32

    // One sequence's part of a forward pass.
    struct Slice {
        State* state;
        std::span<const TokenId> tokens;
    };

    Status load(const ModelWeights& weights, const std::function<bool(int, int)>& progress);
    at::Tensor tensor(const ModelWeights& weights, const std::string& name, bool toCompute = true) const;
    Linear linear(const ModelWeights& weights, const std::string& weight, const std::string& bias) const;
    StoredMatrix storedMatrix(const ModelWeights& weights, const std::string& name) const;
    void computeRopeFrequencies(const ModelWeights& weights);
    void reserve(State::Cache& cache, int needed) const;

    at::Tensor rmsNorm(const at::Tensor& x, const at::Tensor& weight) const;
    at::Tensor rope(const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin) const;
    at::Tensor attention(std::size_t layer, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                         const std::vector<Slice>& slices) const;
    Result<std::vector<float>> run(const std::vector<Slice>& slices, bool allPositions,
                                   std::vector<float>* hidden = nullptr);
    at::Tensor stackedDecodeAttention(std::size_t layer, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                      const std::vector<Slice>& slices, std::int64_t longest,
                                      const std::vector<std::int64_t>& totals) const;
};

// A weight as a tensor on the compute device and dtype. Float weights already in that dtype on the CPU
// are views of the memory map (no copy); everything else is converted once here.
at::Tensor Model::Impl::tensor(const ModelWeights& weights, const std::string& name, bool toCompute) const {
    const ModelWeight* w = weights.find(name);
    if (!w)
        return {};
    std::vector<std::int64_t> stored = w->shape;
    if (w->transposed)
        std::reverse(stored.begin(), stored.end());
    at::Tensor t;
    const std::optional<kernels::WeightType> type = w->stored;
    if (type == kernels::WeightType::F32 || type == kernels::WeightType::F16 || type == kernels::WeightType::BF16) {
        const at::ScalarType scalar = *type == kernels::WeightType::F32   ? at::kFloat
                                      : *type == kernels::WeightType::F16 ? at::kHalf
                                                                          : at::kBFloat16;
        // The mapping is read-only: nothing may write into these tensors (no in-place ops on weights).
        t = at::from_blob(
            const_cast<void*>(w->data), stored, [owner = w->owner](void*) {}, at::TensorOptions().dtype(scalar));
        // Kernels may assume element alignment, which a file offset need not give.
        if (reinterpret_cast<std::uintptr_t>(w->data) % static_cast<std::uintptr_t>(elementBytes(scalar)) != 0)
            t = t.clone();
    } else {
        t = at::empty(stored, at::kFloat);
        w->toFloat(t.data_ptr<float>());
    }
    if (w->transposed)
        t = t.t();
    return toCompute ? t.to(device, dtype) : t;
}

// A matrix for the kernels: in place in the memory map when stored row by row in a kernel type; a copy
// for a transposed one (GPT-2's Conv1D, as contiguous rows of its own dtype) or another encoding (float32).
StoredMatrix Model::Impl::storedMatrix(const ModelWeights& weights, const std::string& name) const {
    const ModelWeight* w = weights.find(name);
    if (!w)
        return {};
    StoredMatrix m;
    m.rows = w->shape[0];
    m.columns = w->shape[1];
    if (w->stored && !w->transposed) {
        m.type = *w->stored;
        m.data = static_cast<const std::uint8_t*>(w->data);
        m.holder = at::from_blob(
            const_cast<void*>(w->data), {static_cast<std::int64_t>(w->bytes)}, [owner = w->owner](void*) {},
            at::TensorOptions().dtype(at::kByte));
    } else {
        const bool keepType = w->stored == kernels::WeightType::F16 || w->stored == kernels::WeightType::BF16;
        m.holder = tensor(weights, name, false).contiguous();
        if (keepType)
            m.type = *w->stored;
        else
            m.holder = m.holder.to(at::kFloat).contiguous();
        m.data = static_cast<const std::uint8_t*>(m.holder.data_ptr());
    }
    m.rowBytes = kernels::rowBytes(m.type, m.columns);
    m.fast = fastMath && kernels::traits(m.type).dotFast != nullptr;
    return m;
}

// Several matrices with the same input as one (their rows one after another); the parts are released.
Linear fused(std::initializer_list<Linear*> parts) {
    std::vector<at::Tensor> weights, biases;
    for (Linear* part : parts) {
        weights.push_back(part->weight);
        if (part->bias.defined())
            biases.push_back(part->bias);
    }
    Linear one;
    one.weight = at::cat(weights, 0);
    if (!biases.empty())
        one.bias = at::cat(biases, 0);
    for (Linear* part : parts)
        *part = Linear{};
    return one;
}

Linear Model::Impl::linear(const ModelWeights& weights, const std::string& weight, const std::string& bias) const {
    Linear l;
    if (useKernels)
        l.stored = storedMatrix(weights, weight);
    else
        l.weight = tensor(weights, weight);
    if (!bias.empty())
        l.bias = useKernels ? tensor(weights, bias).contiguous() : tensor(weights, bias);
    return l;
}

void Model::Impl::computeRopeFrequencies(const ModelWeights& weights) {
    const int half = config.headDim / 2;
    std::vector<float> inv(static_cast<std::size_t>(half));
    const RopeScaling& s = config.ropeScaling;
    for (int i = 0; i < half; ++i) {
        double f = 1.0 / std::pow(config.ropeTheta, 2.0 * i / config.headDim);
        if (s.type == QLatin1String("linear")) {
            f /= s.factor;
        } else if (s.type == QLatin1String("llama3")) {
            // transformers' _compute_llama3_parameters: long wavelengths slowed by `factor`, short ones
            // kept, the band between interpolated smoothly.
            const double wavelength = 2 * std::numbers::pi / f;
            const double lowWavelength = s.originalContext / s.lowFreqFactor;
            const double highWavelength = s.originalContext / s.highFreqFactor;
            if (wavelength > lowWavelength) {
                f /= s.factor;
            } else if (wavelength >= highWavelength) {
                const double smooth =
                    (s.originalContext / wavelength - s.lowFreqFactor) / (s.highFreqFactor - s.lowFreqFactor);
                f = (1 - smooth) * f / s.factor + smooth * f;
            }
        }
        inv[static_cast<std::size_t>(i)] = static_cast<float>(f);
    }
    // GGUF files of Llama 3.1 carry the scaling as per-frequency divisors instead (rope_freqs).
    if (weights.find("rope_freqs")) {
        const at::Tensor divisors = tensor(weights, "rope_freqs", false).to(at::kFloat).contiguous();
        for (std::size_t i = 0; i < inv.size(); ++i)
            inv[i] /= divisors.data_ptr<float>()[i];
    }
    invFreq = at::from_blob(inv.data(), {half}, at::kFloat).clone().to(device);
}

Status Model::Impl::load(const ModelWeights& weights, const std::function<bool(int, int)>& progress) {
    config = weights.config();
    const bool gpt2 = config.family == BlockFamily::Gpt2;
    if (useKernels) {
        embedStored = storedMatrix(weights, "embed");
        output.stored = weights.find("output") ? storedMatrix(weights, "output") : embedStored;
    } else {
        embed = tensor(weights, "embed");
        output.weight = weights.find("output") ? tensor(weights, "output") : embed;
    }
    norm = tensor(weights, "norm");
    if (gpt2) {
        normBias = tensor(weights, "norm_bias");
        posEmbed = tensor(weights, "pos_embed");
    } else {
        computeRopeFrequencies(weights);
    }
    layers.resize(static_cast<std::size_t>(config.layers));
    for (int l = 0; l < config.layers; ++l) {
        const std::string p = "layers." + std::to_string(l) + ".";
        Layer& layer = layers[static_cast<std::size_t>(l)];
        layer.attnNorm = tensor(weights, p + "attn_norm");
        layer.ffnNorm = tensor(weights, p + "ffn_norm");
        if (gpt2) {
            layer.attnNormBias = tensor(weights, p + "attn_norm_bias");
            layer.ffnNormBias = tensor(weights, p + "ffn_norm_bias");
            layer.qkv = linear(weights, p + "wqkv", p + "bqkv");
            layer.o = linear(weights, p + "wo", p + "bo");
            layer.up = linear(weights, p + "w_up", p + "b_up");
            layer.down = linear(weights, p + "w_down", p + "b_down");
        } else {
            const bool bias = config.qkvBias;
            layer.q = linear(weights, p + "wq", bias ? p + "bq" : std::string());
            layer.k = linear(weights, p + "wk", bias ? p + "bk" : std::string());
            layer.v = linear(weights, p + "wv", bias ? p + "bv" : std::string());
            layer.o = linear(weights, p + "wo", {});
            layer.gate = linear(weights, p + "w_gate", {});
            layer.up = linear(weights, p + "w_up", {});
            layer.down = linear(weights, p + "w_down", {});
            if (fewerKernels && !useKernels) {
                layer.qkv = fused({&layer.q, &layer.k, &layer.v});
                layer.gateUp = fused({&layer.gate, &layer.up});
            }
        }
        if (progress && !progress(l + 1, config.layers))
            return Error::badInput(QStringLiteral("loading the model was cancelled"));
    }
    return {};
}

void Model::Impl::reserve(State::Cache& cache, int needed) const {
    if (needed <= cache.capacity)
        return;
    // Grow geometrically so a long generation reallocates O(log n) times; never past the context.
    const int capacity =
        std::max(needed, std::min(config.contextLength, std::max(kInitialCacheCapacity, 2 * cache.capacity)));
    const auto options = at::TensorOptions().device(device).dtype(dtype);
    const std::size_t n = static_cast<std::size_t>(config.layers);
    cache.keys.resize(n);
    cache.values.resize(n);
    for (std::size_t l = 0; l < n; ++l) {
        for (at::Tensor* t : {&cache.keys[l], &cache.values[l]}) {
            // Zeros where stacked attention reads past a shorter sequence's end (masked, times zero).
            at::Tensor grown = fewerKernels ? at::zeros({config.kvHeads, capacity, config.headDim}, options)
                                            : at::empty({config.kvHeads, capacity, config.headDim}, options);
            if (cache.length > 0)
                grown.narrow(1, 0, cache.length).copy_(t->narrow(1, 0, cache.length));
            *t = std::move(grown);
        }
    }
    cache.capacity = capacity;
}

at::Tensor Model::Impl::rmsNorm(const at::Tensor& x, const at::Tensor& weight) const {
    // In float32 whatever the compute dtype, as transformers' LlamaRMSNorm does.
    const at::Tensor xf = x.to(at::kFloat);
    const at::Tensor scale = at::rsqrt(xf.pow(2).mean(-1, true).add_(config.normEps));
    return (xf * scale).to(dtype).mul_(weight);
}

// x: [rows, heads, headDim]; cos, sin: [rows, 1, headDim / 2].
at::Tensor Model::Impl::rope(const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin) const {
    const std::int64_t half = config.headDim / 2;
    if (config.ropeStyle == RopeStyle::Interleaved) {
        // Pairs (2i, 2i+1), as Meta's reference and llama2.c's run.c rotate them.
        const at::Tensor pairs = x.reshape({x.size(0), x.size(1), half, 2});
        const at::Tensor x0 = pairs.select(-1, 0);
        const at::Tensor x1 = pairs.select(-1, 1);
        return at::stack({x0 * cos - x1 * sin, x0 * sin + x1 * cos}, -1).reshape(x.sizes());
    }
    // Pairs (i, i + d/2): transformers' rotate_half.
    const at::Tensor x0 = x.narrow(-1, 0, half);
    const at::Tensor x1 = x.narrow(-1, half, half);
    return at::cat({x0 * cos - x1 * sin, x1 * cos + x0 * sin}, -1);
}

// q: [rows, heads, headDim]; k, v: [rows, kvHeads, headDim]. Appends k, v to each slice's cache and
// attends each slice's rows causally over its own cache. Returns [rows, heads * headDim].
at::Tensor Model::Impl::attention(std::size_t layer, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                  const std::vector<Slice>& slices) const {
    const std::int64_t heads = config.heads;
    const std::int64_t kvHeads = config.kvHeads;
    const std::int64_t group = heads / kvHeads;
    const std::int64_t headDim = config.headDim;
    const double scale = 1.0 / std::sqrt(static_cast<double>(headDim));
    if (fewerKernels && slices.size() > 1 &&
        std::all_of(slices.begin(), slices.end(), [](const Slice& s) { return s.tokens.size() == 1; })) {
        std::int64_t longest = 0;
        bool fits = true;
        std::vector<std::int64_t> totals;
        for (const Slice& slice : slices)
            longest = std::max<std::int64_t>(longest, slice.state->m_cache->length + 1);
        for (const Slice& slice : slices) {
            fits = fits && slice.state->m_cache->capacity >= longest;
            totals.push_back(slice.state->m_cache->length + 1);
        }
        if (fits)
            return stackedDecodeAttention(layer, q, k, v, slices, longest, totals);
    }
    std::vector<at::Tensor> outputs;
    std::int64_t row = 0;
    for (const Slice& slice : slices) {
        State::Cache& cache = *slice.state->m_cache;
        const std::int64_t past = cache.length;
        const std::int64_t n = static_cast<std::int64_t>(slice.tokens.size());
        const std::int64_t total = past + n;
        at::Tensor& keyCache = cache.keys[layer];
        at::Tensor& valueCache = cache.values[layer];
        keyCache.narrow(1, past, n).copy_(k.narrow(0, row, n).transpose(0, 1));
        valueCache.narrow(1, past, n).copy_(v.narrow(0, row, n).transpose(0, 1));
        const at::Tensor keys = keyCache.narrow(1, 0, total);     // [kvHeads, total, headDim]
        const at::Tensor values = valueCache.narrow(1, 0, total); // [kvHeads, total, headDim]
        // Query head h reads key/value head h / group (transformers' repeat_kv, run.c's h / kv_mul):
        // group the query heads by their kv head instead of copying the cache.
        const at::Tensor queries = q.narrow(0, row, n)
                                       .reshape({n, kvHeads, group, headDim})
                                       .permute({1, 2, 0, 3})
                                       .reshape({kvHeads, group * n, headDim});
        at::Tensor scores = at::bmm(queries, keys.transpose(1, 2)).mul_(scale); // [kvHeads, group * n, total]
        if (n > 1) {
            const auto index = at::TensorOptions().dtype(at::kLong).device(device);
            const at::Tensor future =
                at::arange(total, index).unsqueeze(0) > (at::arange(n, index) + past).unsqueeze(1); // [n, total]
            scores.view({kvHeads, group, n, total}).masked_fill_(future, -INFINITY);
        }
        const at::Tensor probabilities = at::softmax(scores, -1, at::kFloat).to(dtype);
        outputs.push_back(at::bmm(probabilities, values)
                              .view({kvHeads, group, n, headDim})
                              .permute({2, 0, 1, 3})
                              .reshape({n, heads * headDim}));
        row += n;
    }
    return outputs.size() == 1 ? outputs.front() : at::cat(outputs, 0);
}

// One decode token per sequence (q: [B, heads, headDim]; k, v: [B, kvHeads, headDim]): appends each to its
// cache, then attends all B at once over the caches stacked to the longest (`longest` positions; each
// sequence's own `totals` entries unmasked). Padding positions hold finite values (zeros or older entries)
// and get probability zero, so the result is the one-by-one loop's.
at::Tensor Model::Impl::stackedDecodeAttention(std::size_t layer, const at::Tensor& q, const at::Tensor& k,
                                               const at::Tensor& v, const std::vector<Slice>& slices,
                                               std::int64_t longest, const std::vector<std::int64_t>& totals) const {
    const std::int64_t batch = static_cast<std::int64_t>(slices.size());
    const std::int64_t heads = config.heads;
    const std::int64_t kvHeads = config.kvHeads;
    const std::int64_t group = heads / kvHeads;
    const std::int64_t headDim = config.headDim;
    std::vector<at::Tensor> keys, values;
    for (std::size_t i = 0; i < slices.size(); ++i) {
        State::Cache& cache = *slices[i].state->m_cache;
        const std::int64_t at = cache.length;
        const auto row = static_cast<std::int64_t>(i);
        cache.keys[layer].select(1, at).copy_(k.select(0, row));
        cache.values[layer].select(1, at).copy_(v.select(0, row));
        keys.push_back(cache.keys[layer].narrow(1, 0, longest));
        values.push_back(cache.values[layer].narrow(1, 0, longest));
    }
    const at::Tensor keyStack = at::stack(keys);     // [B, kvHeads, longest, headDim]
    const at::Tensor valueStack = at::stack(values); // [B, kvHeads, longest, headDim]
    const at::Tensor queries = q.reshape({batch, kvHeads, group, headDim});
    at::Tensor scores =
        at::matmul(queries, keyStack.transpose(2, 3)).mul_(1.0 / std::sqrt(static_cast<double>(headDim)));
    if (std::any_of(totals.begin(), totals.end(), [&](std::int64_t t) { return t != longest; })) {
        const auto index = at::TensorOptions().dtype(at::kLong).device(device);
        const at::Tensor ends = at::from_blob(const_cast<std::int64_t*>(totals.data()), {batch}, at::kLong).to(device);
        const at::Tensor past = at::arange(longest, index).unsqueeze(0) >= ends.unsqueeze(1); // [B, longest]
        scores.masked_fill_(past.view({batch, 1, 1, longest}), -INFINITY);
    }
    const at::Tensor probabilities = at::softmax(scores, -1, at::kFloat).to(dtype);
    return at::matmul(probabilities, valueStack).reshape({batch, heads * headDim}); // [B, kvHeads, group, headDim]
}

Result<std::vector<float>> Model::Impl::run(const std::vector<Slice>& slices, bool allPositions,
                                            std::vector<float>* hidden) {
    std::vector<std::int64_t> ids;
    std::vector<std::int64_t> positions;
    std::set<const State*> seen;
    for (const Slice& slice : slices) {
        const State::Cache& cache = *slice.state->m_cache;
        if (cache.owner != this)
            return Error::internal(
                QStringLiteral("a model state was used with a model other than the one that created it"));
        if (!seen.insert(slice.state).second)
            return Error::internal(QStringLiteral("the same state appears twice in one batch"));
        if (slice.tokens.empty())
            return Error::internal(QStringLiteral("a forward pass needs at least one token"));
        const std::int64_t end = cache.length + static_cast<std::int64_t>(slice.tokens.size());
        if (end > config.contextLength)
            return Error::badInput(
                QStringLiteral("the sequence would reach %1 tokens, past the model's context length of %2")
                    .arg(end)
                    .arg(config.contextLength));
        for (std::size_t i = 0; i < slice.tokens.size(); ++i) {
            const TokenId id = slice.tokens[i];
            if (id < 0 || id >= config.vocabSize)
                return Error::badInput(QStringLiteral("token id %1 is outside the model's vocabulary of %2")
                                           .arg(id)
                                           .arg(config.vocabSize));
            ids.push_back(id);
            positions.push_back(cache.length + static_cast<std::int64_t>(i));
        }
    }
    try {
        c10::InferenceMode inference;
        const auto applyLinear = [this](const Linear& linear, const at::Tensor& x) {
            return swb::applyLinear(linear, x, threads);
        };
        const std::int64_t rows = static_cast<std::int64_t>(ids.size());
        for (const Slice& slice : slices)
            reserve(*slice.state->m_cache, slice.state->m_cache->length + static_cast<int>(slice.tokens.size()));
        const at::Tensor idTensor = at::from_blob(ids.data(), {rows}, at::kLong).to(device);
        const at::Tensor positionTensor = at::from_blob(positions.data(), {rows}, at::kLong).to(device);

        at::Tensor x; // [rows, dim]; a copy, safe to update in place
        if (useKernels) {
            x = at::empty({rows, config.dim}, at::kFloat);
            const kernels::WeightTraits& traits = kernels::traits(embedStored.type);
            for (std::int64_t r = 0; r < rows; ++r)
                traits.toFloat(embedStored.row(ids[static_cast<std::size_t>(r)]), x.data_ptr<float>() + r * config.dim,
                               config.dim);
        } else {
            x = embed.index_select(0, idTensor);
        }
        const bool gpt2 = config.family == BlockFamily::Gpt2;
        const std::int64_t heads = config.heads;
        const std::int64_t kvHeads = config.kvHeads;
        const std::int64_t headDim = config.headDim;
        at::Tensor cos, sin;
        if (gpt2) {
            x.add_(posEmbed.index_select(0, positionTensor));
        } else {
            const at::Tensor angles = positionTensor.to(at::kFloat).unsqueeze(1) * invFreq.unsqueeze(0);
            cos = angles.cos().to(dtype).unsqueeze(1); // [rows, 1, headDim / 2]
            sin = angles.sin().to(dtype).unsqueeze(1);
        }
        for (std::size_t l = 0; l < layers.size(); ++l) {
            const Layer& layer = layers[l];
            if (gpt2) {
                const at::Tensor h =
                    at::layer_norm(x, {config.dim}, layer.attnNorm, layer.attnNormBias, config.normEps);
                const at::Tensor qkv = applyLinear(layer.qkv, h); // [rows, 3 * dim]: q, k, v side by side
                const at::Tensor q = qkv.narrow(1, 0, config.dim).reshape({rows, heads, headDim});
                const at::Tensor k = qkv.narrow(1, config.dim, config.dim).reshape({rows, heads, headDim});
                const at::Tensor v = qkv.narrow(1, 2 * config.dim, config.dim).reshape({rows, heads, headDim});
                x.add_(applyLinear(layer.o, attention(l, q, k, v, slices)));
                const at::Tensor h2 = at::layer_norm(x, {config.dim}, layer.ffnNorm, layer.ffnNormBias, config.normEps);
                x.add_(applyLinear(layer.down, at::gelu(applyLinear(layer.up, h2), "tanh")));
            } else {
                const at::Tensor h = rmsNorm(x, layer.attnNorm);
                at::Tensor q, k, v;
                if (layer.qkv.weight.defined()) {
                    const at::Tensor qkv = applyLinear(layer.qkv, h); // [rows, (heads + 2 kvHeads) * headDim]
                    const at::Tensor qk = rope(
                        qkv.narrow(1, 0, (heads + kvHeads) * headDim).view({rows, heads + kvHeads, headDim}), cos, sin);
                    q = qk.narrow(1, 0, heads);
                    k = qk.narrow(1, heads, kvHeads);
                    v = qkv.narrow(1, (heads + kvHeads) * headDim, kvHeads * headDim).view({rows, kvHeads, headDim});
                } else {
                    q = rope(applyLinear(layer.q, h).view({rows, heads, headDim}), cos, sin);
                    k = rope(applyLinear(layer.k, h).view({rows, kvHeads, headDim}), cos, sin);
                    v = applyLinear(layer.v, h).view({rows, kvHeads, headDim});
                }
                x.add_(applyLinear(layer.o, attention(l, q, k, v, slices)));
                const at::Tensor h2 = rmsNorm(x, layer.ffnNorm);
                if (layer.gateUp.weight.defined()) {
                    const at::Tensor gateUp = applyLinear(layer.gateUp, h2);
                    const std::int64_t hidden = config.hiddenDim;
                    x.add_(applyLinear(layer.down,
                                       at::silu(gateUp.narrow(1, 0, hidden)).mul_(gateUp.narrow(1, hidden, hidden))));
                } else {
                    x.add_(
                        applyLinear(layer.down, at::silu(applyLinear(layer.gate, h2)).mul_(applyLinear(layer.up, h2))));
                }
            }
        }
        if (hidden) {
            const at::Tensor all =
                gpt2 ? at::layer_norm(x, {config.dim}, norm, normBias, config.normEps) : rmsNorm(x, norm);
            const at::Tensor h = all.to(at::kCPU, at::kFloat).contiguous();
            hidden->assign(h.data_ptr<float>(), h.data_ptr<float>() + h.numel());
        }
        if (!allPositions) {
            // Only the last position of each sequence needs the classifier.
            std::vector<std::int64_t> last;
            std::int64_t end = 0;
            for (const Slice& slice : slices) {
                end += static_cast<std::int64_t>(slice.tokens.size());
                last.push_back(end - 1);
            }
            if (static_cast<std::int64_t>(last.size()) != rows)
                x = x.index_select(
                    0, at::from_blob(last.data(), {static_cast<std::int64_t>(last.size())}, at::kLong).to(device));
        }
        x = gpt2 ? at::layer_norm(x, {config.dim}, norm, normBias, config.normEps) : rmsNorm(x, norm);
        const at::Tensor logits = applyLinear(output, x).to(at::kCPU, at::kFloat).contiguous();
        std::vector<float> result(static_cast<std::size_t>(logits.numel()));
        std::memcpy(result.data(), logits.data_ptr<float>(), result.size() * sizeof(float));
        for (const Slice& slice : slices)
            slice.state->m_cache->length += static_cast<int>(slice.tokens.size());
        return result;
    } catch (const c10::Error& e) {
        return Error::internal(
            QStringLiteral("the model failed: %1").arg(QString::fromStdString(e.what_without_backtrace())));
    } catch (const std::exception& e) {
        return Error::internal(QStringLiteral("the model failed: %1").arg(QString::fromLocal8Bit(e.what())));
    }
}

// --- public interface --------------------------------------------------------------------------------

Model::Model(std::unique_ptr<Impl> impl)
    : m_impl(std::move(impl)) {}
Model::~Model() = default;

Result<ModelInfo> Model::inspect(const QString& path, const ModelOptions& options) {
    auto resolved = resolveOptions(options);
    if (!resolved)
        return resolved.error();
    auto weights = ModelWeights::open(path);
    if (!weights)
        return weights.error();
    ModelInfo info = describe(path, weights.value(), resolved.value());
    auto hash = weights->contentHash();
    if (!hash)
        return hash.error();
    info.contentHash = hash.value();
    return info;
}

Result<std::unique_ptr<Model>> Model::load(const QString& path, const ModelOptions& options) {
    auto resolved = resolveOptions(options);
    if (!resolved)
        return resolved.error();
    auto weights = ModelWeights::open(path);
    if (!weights)
        return weights.error();
    auto impl = std::make_unique<Impl>();
    impl->device = resolved->device;
    impl->dtype = resolved->dtype;
    impl->useKernels = usesKernels(resolved.value());
    impl->fastMath = resolved->fastMath;
    impl->fewerKernels = resolved->device.is_cuda() || qEnvironmentVariable("SWB_FEWER_KERNELS") == QLatin1String("1");
    impl->warnings = resolved->warnings + weights->warnings();
    impl->info = describe(path, weights.value(), resolved.value());
    impl->info.tokenizerPath = options.tokenizerPath;
    auto hash = weights->contentHash();
    if (!hash)
        return hash.error();
    impl->info.contentHash = hash.value();
    try {
        // The kernels' products run on ThreadPool, on this model's thread count (model/ThreadPolicy.h), and
        // call the BLAS one tile a thread: one BLAS thread, and one libtorch thread for the small operations
        // between the products, so no OpenMP barrier is ever entered (OpenMP splits work statically and its
        // workers spin: on a busy machine every product waited for a descheduled thread). The libtorch path
        // (CUDA, bf16) gives both process-wide pools the thread count. The BLAS first: an OpenMP build of
        // OpenBLAS sets OpenMP's thread count too.
        impl->threads = impl->info.threads;
        setBlasThreads(impl->useKernels ? 1 : impl->threads);
        at::set_num_threads(impl->useKernels ? 1 : impl->threads);
        c10::InferenceMode inference;
        if (Status loaded = impl->load(weights.value(), options.progress); !loaded)
            return loaded.error();
        // What the label says is what the matrices do.
        bool fast = impl->output.stored.fast;
        for (const Layer& l : impl->layers)
            for (const Linear* m : {&l.q, &l.k, &l.v, &l.qkv, &l.o, &l.gate, &l.up, &l.down, &l.gateUp})
                fast = fast || m->stored.fast;
        impl->info.fastMath = fast;
    } catch (const c10::Error& e) {
        return Error::internal(
            QStringLiteral("cannot load %1: %2").arg(path, QString::fromStdString(e.what_without_backtrace())));
    } catch (const std::bad_alloc&) {
        return Error::internal(QStringLiteral("not enough memory to load %1").arg(path));
    }
    return std::unique_ptr<Model>(new Model(std::move(impl)));
}

const ModelInfo& Model::info() const {
    return m_impl->info;
}

const QStringList& Model::warnings() const {
    return m_impl->warnings;
}

std::unique_ptr<Model::State> Model::newState() const {
    std::unique_ptr<State> state(new State);
    state->m_cache->owner = m_impl.get();
    return state;
}

std::unique_ptr<Model::State> Model::cloneState(const State& state) const {
    std::unique_ptr<State> copy = newState();
    const State::Cache& from = *state.m_cache;
    State::Cache& to = *copy->m_cache;
    to.owner = from.owner;
    try {
        c10::InferenceMode inference;
        if (from.length > 0) {
            m_impl->reserve(to, from.length);
            for (std::size_t l = 0; l < from.keys.size(); ++l) {
                to.keys[l].narrow(1, 0, from.length).copy_(from.keys[l].narrow(1, 0, from.length));
                to.values[l].narrow(1, 0, from.length).copy_(from.values[l].narrow(1, 0, from.length));
            }
        }
    } catch (const c10::Error&) {
        return nullptr;
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
    to.length = from.length;
    return copy;
}

int Model::length(const State& state) {
    return state.m_cache->length;
}

void Model::rewind(State& state, int length) {
    state.m_cache->length = std::clamp(length, 0, state.m_cache->length);
}

Result<std::vector<float>> Model::forward(State& state, std::span<const TokenId> tokens, bool allPositions,
                                          std::vector<float>* hidden) {
    return m_impl->run({Impl::Slice{&state, tokens}}, allPositions, hidden);
}

Result<std::vector<float>> Model::forwardBatch(std::span<State* const> states, std::span<const TokenId> tokens,
                                               std::vector<float>* hidden) {
    if (states.size() != tokens.size())
        return Error::internal(QStringLiteral("a batched step needs one token per state (%1 states, %2 tokens)")
                                   .arg(states.size())
                                   .arg(tokens.size()));
    std::vector<Impl::Slice> slices;
    for (std::size_t i = 0; i < states.size(); ++i)
        slices.push_back({states[i], tokens.subspan(i, 1)});
    if (slices.empty())
        return std::vector<float>();
    return m_impl->run(slices, false, hidden);
}

Result<std::vector<float>> Model::forwardMany(std::span<State* const> states,
                                              std::span<const std::vector<TokenId>> tokens) {
    if (states.size() != tokens.size())
        return Error::internal(QStringLiteral("a batched pass needs tokens for every state (%1 states, %2 lists)")
                                   .arg(states.size())
                                   .arg(tokens.size()));
    std::vector<Impl::Slice> slices;
    for (std::size_t i = 0; i < states.size(); ++i)
        slices.push_back({states[i], std::span<const TokenId>(tokens[i])});
    if (slices.empty())
        return std::vector<float>();
    return m_impl->run(slices, false);
}

double Model::measureCopyBandwidth(std::size_t bytes) const {
    try {
        const auto options = at::TensorOptions().device(m_impl->device).dtype(at::kByte);
        const at::Tensor from = at::ones({static_cast<std::int64_t>(bytes)}, options);
        at::Tensor to = at::empty_like(from);
        double best = 0.0;
        for (int i = 0; i < 6; ++i) {
            const auto start = std::chrono::steady_clock::now();
            to.copy_(from);
            (void)to[0].item<std::uint8_t>(); // waits for the copy: work on a device runs in order
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (i > 0) // the first one warms up
                best = std::max(best, static_cast<double>(bytes) / s / 1e9);
        }
        return best;
    } catch (const std::exception&) {
        return 0.0;
    }
}

} // namespace swb
