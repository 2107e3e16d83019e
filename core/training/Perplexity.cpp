#include "training/Perplexity.h"

#include <algorithm>
#include <cmath>
#include <span>

#include "model/Model.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

Result<PerplexityResult> Perplexity::ofDocuments(Model& model, const Tokenizer& tokenizer,
                                                 const std::vector<std::string>& documents) {
    const int vocab = model.info().vocabSize;
    const std::size_t context = static_cast<std::size_t>(std::max(2, model.info().contextLength));
    const TokenId eos = tokenizer.specialTokens().eos;
    double nll = 0;
    PerplexityResult result;
    for (const std::string& doc : documents) {
        std::vector<TokenId> ids = tokenizer.encode(doc, true, false);
        if (eos >= 0)
            ids.push_back(eos);
        if (ids.size() < 2)
            continue;
        ++result.documents;
        // Consecutive windows overlap by one token, so that every token but the first is predicted once.
        for (std::size_t start = 0; start + 1 < ids.size(); start += context - 1) {
            const std::size_t n = std::min(context, ids.size() - start);
            std::unique_ptr<Model::State> state = model.newState();
            const std::span<const TokenId> window(ids.data() + start, n);
            Result<std::vector<float>> logits = model.forward(*state, window, true);
            if (!logits)
                return logits.error();
            for (std::size_t i = 0; i + 1 < n; ++i) {
                const float* row = logits->data() + i * static_cast<std::size_t>(vocab);
                const float top = *std::max_element(row, row + vocab);
                double sum = 0;
                for (int v = 0; v < vocab; ++v)
                    sum += std::exp(static_cast<double>(row[v]) - top);
                nll += std::log(sum) + top - row[window[i + 1]];
                ++result.tokens;
            }
        }
    }
    if (result.tokens == 0)
        return Error::badInput(QStringLiteral("there is no text to score"));
    result.meanNll = nll / static_cast<double>(result.tokens);
    result.perplexity = std::exp(result.meanNll);
    return result;
}

} // namespace swb
