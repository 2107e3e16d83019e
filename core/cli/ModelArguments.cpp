#include "cli/ModelArguments.h"

#include <algorithm>

#include "AppInfo.h"
#include "model/Model.h"
#include "model/ThreadPolicy.h"
#include "serving/RemoteEngine.h"
#include "tokenizer/TokenizerLoader.h"

namespace swb::cli {

LoadedModel::LoadedModel() = default;
LoadedModel::LoadedModel(LoadedModel&&) noexcept = default;
LoadedModel::~LoadedModel() = default;

void declareModelArguments(QCommandLineParser& parser, bool withRuntime) {
    parser.addOptions({
        {QStringLiteral("model"),
         QStringLiteral("Hugging Face folder, .gguf file or llama2.c .bin (default: the bundled demo model)."),
         QStringLiteral("PATH")},
        {QStringLiteral("tokenizer"), QStringLiteral("Tokenizer file (tokenizer.json or llama2.c tok.bin)."),
         QStringLiteral("PATH")},
    });
    if (withRuntime)
        parser.addOptions({
            {QStringLiteral("device"), QStringLiteral("cpu or cuda (default cpu)."), QStringLiteral("D")},
            {QStringLiteral("dtype"), QStringLiteral("f32, f16 or bf16 (default f32)."), QStringLiteral("T")},
            {QStringLiteral("threads"),
             QStringLiteral("CPU threads (default: auto, the usable CPUs; 1 for a small model)."), QStringLiteral("N")},
            {QStringLiteral("fast-math"),
             QStringLiteral("Labelled fast path, off by default: quantized weights take activations rounded to 8 bits "
                            "(llama.cpp's arithmetic); faster, not exact.")},
        });
}

QString modelPathArgument(const Invocation& call) {
    if (call.args.isSet(QStringLiteral("model"))) {
        const QString path = call.args.value(QStringLiteral("model"));
        refuseRemoteModel(path);
        return path;
    }
    return bundledModelPath();
}

void refuseRemoteModel(const QString& path) {
    if (isRemoteModelAddress(path))
        failBadInput(QStringLiteral("%1 is a server address: this command needs the model here (a file or folder); "
                                    "swb generate, batch and info take a model another engine serves")
                         .arg(path));
}

LoadedModel loadModelFromArguments(const Invocation& call) {
    return loadModelFromArguments(call, modelPathArgument(call));
}

LoadedModel loadModelFromArguments(const Invocation& call, const QString& path) {
    ModelOptions options;
    if (call.args.isSet(QStringLiteral("device")))
        options.device = call.args.value(QStringLiteral("device")).toLower();
    if (options.device != QLatin1String("cpu") && options.device != QLatin1String("cuda"))
        failBadInput(QStringLiteral("--device must be cpu or cuda, not '%1'").arg(options.device));
    if (call.args.isSet(QStringLiteral("dtype")))
        options.dtype = call.args.value(QStringLiteral("dtype")).toLower();
    if (options.dtype != QLatin1String("f32") && options.dtype != QLatin1String("f16") &&
        options.dtype != QLatin1String("bf16"))
        failBadInput(QStringLiteral("--dtype must be f32, f16 or bf16, not '%1'").arg(options.dtype));
    // More threads than cores only slows a decode down (1,000 threads took a minute for 16 tokens).
    if (call.args.isSet(QStringLiteral("threads"))) {
        long long threads = call.integer(QStringLiteral("threads"), 0, 1, 1 << 20);
        const int cores = usableCpus();
        if (threads > cores) {
            call.err << "swb: warning: --threads " << threads << " is more than the " << cores
                     << (cores == 1 ? " CPU" : " CPUs") << " this process may use; using " << cores << '\n';
            threads = cores;
        }
        options.threads = static_cast<int>(threads);
    }

    options.tokenizerPath = call.args.value(QStringLiteral("tokenizer"));
    options.fastMath = call.args.isSet(QStringLiteral("fast-math"));

    LoadedModel loaded;
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(path, options.tokenizerPath);
    if (!tokenizer)
        throw Failure{tokenizer.error().kind == ErrorKind::BadInput ? 2 : 1, tokenizer.error().message};
    Result<std::unique_ptr<Model>> model = Model::load(path, options);
    if (!model)
        throw Failure{model.error().kind == ErrorKind::BadInput ? 2 : 1, model.error().message};
    loaded.model = std::move(model).value();
    loaded.tokenizer = std::move(tokenizer).value();
    if (loaded.tokenizer->vocabSize() > loaded.model->info().vocabSize)
        failBadInput(QStringLiteral("the tokenizer has %1 tokens but the model %2 only %3")
                         .arg(loaded.tokenizer->vocabSize())
                         .arg(path)
                         .arg(loaded.model->info().vocabSize));
    return loaded;
}

} // namespace swb::cli
