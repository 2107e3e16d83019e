// Any bytes through the demo model's tokenizer: encoded (with and without special tokens) and decoded back.
#include <QCoreApplication>

#include "FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const swb::Tokenizer& tokenizer = swb::fuzz::demoTokenizer();
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::vector<swb::TokenId> ids = tokenizer.encode(text, true, size > 0 && (data[0] & 1));
    (void)tokenizer.decode(ids);
    std::vector<swb::TokenId> raw;
    for (std::size_t i = 0; i + 1 < size && raw.size() < 256; i += 2)
        raw.push_back(swb::TokenId((data[i] | (data[i + 1] << 8)) % (tokenizer.vocabSize() + 8)) - 4);
    std::vector<swb::TokenId> valid;
    for (swb::TokenId id : raw)
        if (id >= 0 && id < tokenizer.vocabSize())
            valid.push_back(id);
    (void)tokenizer.decode(valid);
    return 0;
}
