#include "quantization/ServedModel.h"

#include <QJsonArray>
#include <QJsonObject>

namespace swb::quantization {

Result<RemoteModel> connectServedModelB(const QString& address, const QString& apiKey, const Tokenizer& tokenizerA,
                                        int vocabA, const std::string* text) {
    Result<RemoteModel> remote = connectRemoteModel(address, apiKey);
    if (!remote)
        return remote.error();
    if (remote->engine == RemoteEngineKind::OpenAi)
        return Error::badInput(QStringLiteral("%1 gives no token ids, so its tokens cannot be matched with model A's; "
                                              "divergence needs llama.cpp's server, vLLM or swb serve")
                                   .arg(address));
    if (remote->vocabSize > 0 && remote->vocabSize != vocabA)
        return Error::badInput(QStringLiteral("the two models do not share a tokenizer: %1 tokens against %2")
                                   .arg(vocabA)
                                   .arg(remote->vocabSize));
    if (text) {
        const std::optional<std::vector<int>> theirs = remoteTokenize(*remote, *text);
        if (!theirs)
            return Error::badInput(QStringLiteral("%1 does not say how it tokenizes the text, so its tokens cannot be "
                                                  "matched with model A's")
                                       .arg(address));
        const std::vector<TokenId> ours = tokenizerA.encode(*text, true, false);
        if (*theirs != std::vector<int>(ours.begin(), ours.end()))
            return Error::badInput(QStringLiteral("the two models do not share a tokenizer: B reads the text as %1 "
                                                  "tokens, A as %2")
                                       .arg(theirs->size())
                                       .arg(ours.size()));
    }
    return remote;
}

// Model B served by an engine: its top N at each position of the text, the text's next token forced by a logit
// bias so that the engine reports that token's own (raw) log probability.
TopNSource servedTopN(const RemoteModel& model, int topN) {
    return [model, topN](std::span<const TokenId> prefix, TokenId next) -> Result<TopNRow> {
        RemoteRequest request;
        request.promptIds.assign(prefix.begin(), prefix.end());
        request.maxTokens = 1;
        request.topN = topN;
        Result<Strategy> forced = Strategy::fromJson(
            QJsonObject{{QStringLiteral("samplers"),
                         QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("logit_bias")},
                                                {QStringLiteral("bias"), QJsonObject{{QString::number(next), 100.0}}}},
                                    QJsonObject{{QStringLiteral("type"), QStringLiteral("greedy")}}}}});
        if (!forced)
            return forced.error();
        request.strategy = *forced;
        Result<RemoteResult> answer = remoteGenerate(model, request);
        if (!answer)
            return answer.error();
        if (answer->steps.empty() || answer->steps.front().chosen.id != next)
            return Error::badInput(QStringLiteral("%1 did not give the text's token %2 when told to (a logit bias of "
                                                  "100); it cannot be read teacher forced")
                                       .arg(remoteEngineName(model.engine))
                                       .arg(next));
        const RemoteStep& step = answer->steps.front();
        TopNRow row;
        row.logpToken = step.chosen.logprob;
        for (const RemoteCandidate& c : step.top)
            if (c.id >= 0)
                row.top.emplace_back(c.id, c.logprob);
        if (row.top.empty())
            return Error::badInput(
                QStringLiteral("%1 gave no token ids with its log probabilities").arg(remoteEngineName(model.engine)));
        return row;
    };
}

} // namespace swb::quantization
