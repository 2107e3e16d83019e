#pragma once

#include <string>
#include <utility>
#include <vector>

#include "Result.h"

namespace swb {

// A trained byte-level BPE vocabulary: token texts in GPT-2's byte-level alphabet, by id, and the
// merges in rank order. Ids: the special tokens first, then the 256 bytes in byte order, then one
// token per merge.
struct BpeVocabulary {
    std::vector<std::string> tokens;
    std::vector<std::pair<std::string, std::string>> merges;
    int specialCount = 0;
};

// Learns byte-level BPE merges (Sennrich et al.; GPT-2's byte alphabet and pre-tokenization) from
// documents: the pair occurring most often inside the pre-tokenized words is merged, again and again,
// until the vocabulary has the requested size. Ties go to the pair of lower ids, so the result depends
// only on the documents.
class BpeTrainer {
public:
    // vocabularySize counts the special tokens and the 256 bytes.
    static Result<BpeVocabulary> train(const std::vector<std::string>& documents, int vocabularySize,
                                       const std::vector<std::string>& specialTokens);
};

} // namespace swb
