#include "quantization/QuantizeSource.h"

#include <QFileInfo>

#include "formats/GgufDequantize.h"
#include "formats/GgufFile.h"
#include "formats/GgufWriter.h"
#include "formats/MappedFile.h"
#include "model/ModelWeights.h"
#include "quantization/GgufVocabulary.h"

namespace swb::quantization {

namespace {

using W = kernels::WeightType;

std::int64_t product(const std::vector<std::int64_t>& dims) {
    std::int64_t n = 1;
    for (const std::int64_t d : dims)
        n *= d;
    return n;
}

// --- GGUF ---------------------------------------------------------------------------------------------

ModelShape shapeOf(const GgufFile& file) {
    ModelShape shape;
    shape.architecture = file.string("general.architecture").value_or(std::string());
    const std::string& a = shape.architecture;
    shape.layers = static_cast<int>(file.integer(a + ".block_count").value_or(0));
    shape.heads = static_cast<int>(file.integer(a + ".attention.head_count").value_or(0));
    shape.kvHeads = static_cast<int>(file.integer(a + ".attention.head_count_kv").value_or(shape.heads));
    shape.experts = static_cast<int>(file.integer(a + ".expert_count").value_or(0));
    return shape;
}

Result<QuantizeSource> openGguf(const QString& path) {
    Result<GgufFile> opened = GgufFile::open(path);
    if (!opened)
        return opened.error();
    auto file = std::make_shared<const GgufFile>(std::move(*opened));
    QuantizeSource source;
    source.format = QStringLiteral("gguf");
    source.files = {path};
    source.shape = shapeOf(*file);
    source.owner = file;
    for (const GgufFile::Tensor& t : file->tensors()) {
        const std::optional<W> type = kernels::fromGgml(t.type);
        if (!type)
            return Error::badInput(QStringLiteral("%1: tensor %2 is of type %3, which swb quantize cannot read")
                                       .arg(path, QString::fromStdString(t.name), ggmlTypeName(t.type)));
        SourceTensor s;
        s.name = t.name;
        s.dims = t.dims;
        s.type = *type;
        s.stored = *type;
        s.data = reinterpret_cast<const std::uint8_t*>(t.data);
        s.inputBytes = t.bytes;
        const std::size_t rowBytes = kernels::rowBytes(*type, t.dims.empty() ? 0 : t.dims[0]);
        const auto toFloat = kernels::traits(*type).toFloat;
        const std::int64_t rowLength = t.dims.empty() ? 0 : t.dims[0];
        s.readRow = [data = s.data, rowBytes, rowLength, toFloat](std::int64_t row, float* out) {
            toFloat(data + static_cast<std::size_t>(row) * rowBytes, out, rowLength);
        };
        s.release = [file, data = t.data, bytes = t.bytes] { file->mapping()->release(data, bytes); };
        source.tensors.push_back(std::move(s));
    }
    source.writeMetadata = [file](GgufWriter& writer) {
        for (const QString& key : file->keys()) {
            const std::string k = key.toStdString();
            if (k != "split.no" && k != "split.count" && k != "split.tensors.count")
                writer.setEncoded(k, file->encodedValue(k));
        }
    };
    return source;
}

// --- Hugging Face -------------------------------------------------------------------------------------

// convert_hf_to_gguf.py's permute for Llama's Q and K: within each head of headDim rows, Hugging Face's
// halves layout (row j * headDim/2 + i) goes back to Meta's interleaved pairs (row 2i + j). The row of the
// Hugging Face tensor that GGUF's row `row` comes from.
std::int64_t interleavedFromHalves(std::int64_t row, std::int64_t headDim) {
    const std::int64_t head = row / headDim, k = row % headDim;
    return head * headDim + (k % 2) * (headDim / 2) + k / 2;
}

// Llama 3's RoPE scaling as the converter writes it (LlamaModel.generate_extra_tensors): one divisor per
// frequency, float32 frequencies as torch computes them.
std::vector<float> llama3RopeDivisors(const ModelConfig& c) {
    const RopeScaling& s = c.ropeScaling;
    const double lowWavelength = s.originalContext / s.lowFreqFactor;
    const double highWavelength = s.originalContext / s.highFreqFactor;
    std::vector<float> divisors;
    for (int i = 0; i < c.headDim; i += 2) {
        const float frequency =
            1.0f / std::pow(static_cast<float>(c.ropeTheta), static_cast<float>(i) / static_cast<float>(c.headDim));
        const double wavelength = 2 * M_PI / static_cast<double>(frequency);
        if (wavelength < highWavelength) {
            divisors.push_back(1.0f);
        } else if (wavelength > lowWavelength) {
            divisors.push_back(static_cast<float>(s.factor));
        } else {
            const double smooth =
                (s.originalContext / wavelength - s.lowFreqFactor) / (s.highFreqFactor - s.lowFreqFactor);
            divisors.push_back(static_cast<float>(1.0 / ((1 - smooth) / s.factor + smooth)));
        }
    }
    return divisors;
}

// One weight of the folder as the converter writes it: its rows in GGUF's order, as floats.
SourceTensor convertedTensor(const std::string& decoderName, const ModelWeight& w, const ModelConfig& config,
                             bool metaOrder) {
    SourceTensor t;
    t.name = ggufTensorName(decoderName);
    t.dims.assign(w.shape.rbegin(), w.shape.rend());
    t.type = W::F32;
    t.inputBytes = w.bytes;
    const W stored = *w.stored;
    t.stored = stored;
    const auto toFloat = kernels::traits(stored).toFloat;
    const std::size_t elementBytes = kernels::rowBytes(stored, 1);
    const auto* data = static_cast<const std::uint8_t*>(w.data);
    const std::int64_t rowLength = t.dims[0];
    const std::int64_t rows = product(w.shape) / rowLength;

    const std::string part = decoderName.substr(decoderName.rfind('.') + 1);
    const bool permuted = metaOrder && (part == "wq" || part == "wk" || part == "bq" || part == "bk");
    const std::int64_t headDim = config.headDim;
    if (w.transposed) {
        // GPT-2's Conv1D stores [in, out]: GGUF row r is the file's column r.
        t.readRow = [=](std::int64_t row, float* out) {
            for (std::int64_t c = 0; c < rowLength; ++c)
                toFloat(data + static_cast<std::size_t>(c * rows + row) * elementBytes, out + c, 1);
        };
    } else if (permuted && w.shape.size() == 1) {
        t.readRow = [=](std::int64_t, float* out) {
            for (std::int64_t i = 0; i < rowLength; ++i)
                toFloat(data + static_cast<std::size_t>(interleavedFromHalves(i, headDim)) * elementBytes, out + i, 1);
        };
    } else {
        t.readRow = [=](std::int64_t row, float* out) {
            const std::int64_t from = permuted ? interleavedFromHalves(row, headDim) : row;
            toFloat(data + static_cast<std::size_t>(from * rowLength) * elementBytes, out, rowLength);
        };
        if (stored == W::F32 && !permuted)
            t.data = data;
    }
    if (w.mapping)
        t.release = [mapping = w.mapping, data, bytes = w.bytes] { mapping->release(data, bytes); };
    return t;
}

void writeModelMetadata(GgufWriter& w, const ModelConfig& c, const std::string& arch, const QString& name) {
    w.setString("general.architecture", arch);
    w.setString("general.type", "model");
    w.setString("general.name", name.toStdString());
    const auto key = [&](const char* k) { return arch + "." + k; };
    w.setUInt32(key("context_length"), static_cast<std::uint32_t>(c.contextLength));
    w.setUInt32(key("embedding_length"), static_cast<std::uint32_t>(c.dim));
    w.setUInt32(key("feed_forward_length"), static_cast<std::uint32_t>(c.hiddenDim));
    w.setUInt32(key("block_count"), static_cast<std::uint32_t>(c.layers));
    w.setUInt32(key("attention.head_count"), static_cast<std::uint32_t>(c.heads));
    if (c.family == BlockFamily::Gpt2) {
        w.setFloat32(key("attention.layer_norm_epsilon"), static_cast<float>(c.normEps));
        return;
    }
    w.setUInt32(key("attention.head_count_kv"), static_cast<std::uint32_t>(c.kvHeads));
    w.setFloat32(key("rope.freq_base"), static_cast<float>(c.ropeTheta));
    w.setFloat32(key("attention.layer_norm_rms_epsilon"), static_cast<float>(c.normEps));
    if (c.headDim * c.heads != c.dim) {
        w.setUInt32(key("attention.key_length"), static_cast<std::uint32_t>(c.headDim));
        w.setUInt32(key("attention.value_length"), static_cast<std::uint32_t>(c.headDim));
    }
    if (arch == "llama") {
        w.setUInt32(key("vocab_size"), static_cast<std::uint32_t>(c.vocabSize));
        w.setUInt32(key("rope.dimension_count"), static_cast<std::uint32_t>(c.headDim));
    }
    if (c.ropeScaling.type == QLatin1String("linear")) {
        w.setString(key("rope.scaling.type"), "linear");
        w.setFloat32(key("rope.scaling.factor"), static_cast<float>(c.ropeScaling.factor));
    }
}

struct HuggingFaceInput {
    ModelWeights weights;
    std::vector<float> ropeDivisors;
};

Result<QuantizeSource> openHuggingFace(const QString& path) {
    Result<ModelWeights> opened = ModelWeights::open(path);
    if (!opened)
        return opened.error();
    auto input = std::make_shared<HuggingFaceInput>(HuggingFaceInput{std::move(*opened), {}});
    const ModelWeights& weights = input->weights;
    const ModelConfig& c = weights.config();
    const QString folder = QFileInfo(weights.files().front()).absolutePath(); // config.json comes first
    QuantizeSource source;
    source.format = QStringLiteral("hf-safetensors");
    source.files = weights.files();
    source.notes = weights.warnings();
    Result<GgufVocabulary> vocabulary = ggufVocabulary(folder, c, source.notes);
    if (!vocabulary)
        return vocabulary.error();
    source.files << vocabulary->files;
    const std::string arch = c.family == BlockFamily::Gpt2              ? "gpt2"
                             : c.architecture == QLatin1String("qwen2") ? "qwen2"
                                                                        : "llama"; // Mistral is written as Llama
    source.shape = {arch, c.layers, c.heads, c.kvHeads, 0};
    for (const auto& [name, weight] : weights.all()) {
        if (!weight.stored)
            return Error::badInput(QStringLiteral("%1: tensor %2 is not stored as f32, f16 or bf16")
                                       .arg(path, QString::fromStdString(name)));
        source.tensors.push_back(convertedTensor(name, weight, c, arch == "llama"));
    }
    if (c.ropeScaling.type == QLatin1String("llama3")) {
        input->ropeDivisors = llama3RopeDivisors(c);
        SourceTensor t;
        t.name = "rope_freqs.weight";
        t.dims = {static_cast<std::int64_t>(input->ropeDivisors.size())};
        t.data = reinterpret_cast<const std::uint8_t*>(input->ropeDivisors.data());
        t.readRow = [data = input->ropeDivisors.data(), n = input->ropeDivisors.size()](std::int64_t, float* out) {
            std::copy(data, data + n, out);
        };
        source.tensors.push_back(std::move(t));
    }
    source.writeMetadata = [c, arch, vocabulary = std::move(*vocabulary),
                            name = QFileInfo(folder).fileName()](GgufWriter& writer) {
        writeModelMetadata(writer, c, arch, name);
        vocabulary.write(writer);
    };
    source.owner = input;
    return source;
}

bool isHuggingFacePath(const QString& path) {
    const QFileInfo info(path);
    return info.isDir() || info.fileName() == QLatin1String("config.json") ||
           info.suffix() == QLatin1String("safetensors") ||
           info.fileName().endsWith(QLatin1String(".safetensors.index.json"));
}

} // namespace

std::int64_t SourceTensor::elements() const {
    return product(dims);
}

Result<QuantizeSource> openQuantizeSource(const QString& path) {
    return isHuggingFacePath(path) ? openHuggingFace(path) : openGguf(path);
}

} // namespace swb::quantization
