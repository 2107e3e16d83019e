#include "quantization/Quantizer.h"

#include <algorithm>
#include <map>

#include <QFileInfo>

#include "formats/GgufWriter.h"
#include "model/ThreadPolicy.h"
#include "model/ThreadPool.h"
#include "quantization/QuantizeSource.h"
#include "quantization/RowQuantizer.h"
#include "storage/FileIdentity.h"

namespace swb::quantization {

namespace {

using W = kernels::WeightType;

constexpr std::uint32_t kQuantizationVersion = 2; // GGML_QNT_VERSION
// Rows are converted a chunk at a time, about this many output bytes: big enough to share among the
// threads, small beside any tensor worth quantizing.
constexpr std::uint64_t kChunkBytes = 8ull << 20;

Error cancelled(const QString& output) {
    return Error::badInput(QStringLiteral("quantization cancelled; %1 was not written").arg(output));
}

QString typeName(W type) {
    return QString::fromLatin1(kernels::traits(type).name);
}

struct Planned {
    const SourceTensor* source = nullptr;
    TensorChoice choice;
};

// The tensors in llama.cpp's order with the type each gets; an error for a tensor that cannot be made so.
Result<std::vector<Planned>> plan(const QuantizeSource& source, const QuantizeOptions& options) {
    std::vector<TensorInfo> infos;
    std::map<std::string, const SourceTensor*> byName;
    for (const SourceTensor& t : source.tensors) {
        infos.push_back({t.name, t.dims, t.type});
        byName[t.name] = &t;
    }
    sortAsLlamaCpp(infos);
    const std::vector<TensorChoice> choices =
        chooseTypes(infos, source.shape, options.recipe, options.pure, options.overrides);
    std::vector<Planned> planned;
    for (std::size_t i = 0; i < infos.size(); ++i) {
        const TensorInfo& info = infos[i];
        const bool floatSource = info.type == W::F32 || info.type == W::F16 || info.type == W::BF16;
        if (choices[i].type != info.type && !floatSource)
            return Error::badInput(QStringLiteral("%1: tensor %2 is already quantized (%3); swb quantize starts from "
                                                  "float weights (f32, f16 or bf16), not from another quantization")
                                       .arg(options.input, QString::fromStdString(info.name), typeName(info.type)));
        planned.push_back({byName.at(info.name), choices[i]});
    }
    return planned;
}

// Converts one tensor's rows chunk by chunk (shared among the threads) and streams them to the writer.
Status convert(const Planned& p, int threads, GgufWriter& writer, const std::function<bool(std::uint64_t)>& chunkDone) {
    const SourceTensor& t = *p.source;
    const std::int64_t rowLength = t.dims[0];
    const std::int64_t rows = t.rows();
    const std::size_t outRow = kernels::rowBytes(p.choice.type, rowLength);
    const std::int64_t chunkRows = std::max<std::int64_t>(1, static_cast<std::int64_t>(kChunkBytes / outRow));
    std::vector<std::uint8_t> out(static_cast<std::size_t>(std::min(chunkRows, rows)) * outRow);
    for (std::int64_t first = 0; first < rows; first += chunkRows) {
        const std::int64_t count = std::min(chunkRows, rows - first);
        ThreadPool::instance().parallelFor(count, 1, threads, [&](std::int64_t begin, std::int64_t end) {
            std::vector<float> x(static_cast<std::size_t>(rowLength));
            for (std::int64_t r = begin; r < end; ++r) {
                t.readRow(first + r, x.data());
                quantizeRow(p.choice.type, x.data(), out.data() + static_cast<std::size_t>(r) * outRow, rowLength);
            }
        });
        if (Status s = writer.write(out.data(), static_cast<std::uint64_t>(count) * outRow); !s)
            return s;
        // The input's share of these rows, for progress.
        const auto readBy = [&](std::int64_t row) {
            return t.inputBytes * static_cast<std::uint64_t>(row) / static_cast<std::uint64_t>(rows);
        };
        if (!chunkDone(readBy(first + count) - readBy(first)))
            return cancelled(writer.path());
    }
    return {};
}

} // namespace

Result<QuantizeReport> quantizeModel(const QuantizeOptions& options, const QuantizeProgressFn& progress) {
    // A run store's write-ahead log, shared memory or journal holds committed runs: never replaced.
    if (const QString store = storeOwningCompanion(options.output); !store.isEmpty())
        return Error::badInput(
            QStringLiteral("the output %1 belongs to the run store %2; name another file").arg(options.output, store));
    Result<QuantizeSource> opened = openQuantizeSource(options.input);
    if (!opened)
        return opened.error();
    const QuantizeSource& source = *opened;
    for (const QString& file : source.files)
        if (overwrites(options.output, file))
            return Error::badInput(
                source.files.size() == 1
                    ? QStringLiteral("the output %1 is the input model; name another file").arg(options.output)
                    : QStringLiteral("the output %1 is one of the input model's files; name another file")
                          .arg(options.output));
    Result<std::vector<Planned>> planned = plan(source, options);
    if (!planned)
        return planned.error();

    GgufWriter writer(options.output);
    source.writeMetadata(writer);
    writer.setUInt32("general.quantization_version", kQuantizationVersion);
    writer.setUInt32("general.file_type", options.recipe.fileType);

    QuantizeReport report;
    report.notes = source.notes;
    QuantizeProgress state;
    state.tensors = static_cast<int>(planned->size());
    for (const Planned& p : *planned) {
        if (Status s = writer.addTensor(p.source->name, p.source->dims, kernels::toGgml(p.choice.type)); !s)
            return s.error();
        if (!p.choice.fallback.isEmpty())
            report.notes << p.choice.fallback;
        report.inputDataBytes += p.source->inputBytes;
        report.elements += p.source->elements();
    }
    state.bytesTotal = report.inputDataBytes;
    if (Status s = writer.begin(); !s)
        return s.error();

    const int threads = options.threads > 0 ? options.threads : usableCpus();
    const auto goOn = [&] { return !progress || progress(state); };
    for (std::size_t i = 0; i < planned->size(); ++i) {
        const Planned& p = (*planned)[i];
        state.tensor = static_cast<int>(i) + 1;
        state.name = p.source->name;
        state.from = typeName(p.source->stored);
        state.to = typeName(p.choice.type);
        if (!goOn())
            return cancelled(options.output);
        if (p.choice.type == p.source->type && p.source->data) {
            if (Status s = writer.write(p.source->data, writer.tensorBytes(i)); !s)
                return s.error();
            state.bytesRead += p.source->inputBytes;
        } else {
            const Status s = convert(p, threads, writer, [&](std::uint64_t read) {
                state.bytesRead += read;
                return goOn();
            });
            if (!s)
                return s.error();
        }
        if (p.source->release)
            p.source->release();
        report.tensors.push_back({p.source->name, state.from, state.to, writer.tensorBytes(i)});
        report.outputDataBytes += writer.tensorBytes(i);
    }
    if (Status s = writer.finish(); !s)
        return s.error();
    report.outputFileBytes = static_cast<std::uint64_t>(QFileInfo(options.output).size());
    return report;
}

} // namespace swb::quantization
