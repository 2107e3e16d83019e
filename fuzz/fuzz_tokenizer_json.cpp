// A tokenizer.json as the loader reads it, then a fixed text encoded and decoded with it.
#include <QCoreApplication>

#include "FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QString path = swb::fuzz::inputFile(data, size, "tokenizer.json");
    swb::Result<std::unique_ptr<swb::Tokenizer>> tokenizer = swb::loadTokenizer(swb::fuzz::scratchDir(), path);
    if (!tokenizer)
        return 0;
    const std::vector<swb::TokenId> ids = (*tokenizer)->encode("Hello, wörld! <s> 123\n\tend", true, true);
    (void)(*tokenizer)->decode(ids);
    for (swb::TokenId id : ids)
        (void)(*tokenizer)->piece(id);
    return 0;
}
