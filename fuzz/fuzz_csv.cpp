// CSV as the prompt and rating imports read it.
#include <QCoreApplication>

#include "FuzzSupport.h"
#include "evaluation/PromptFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    (void)swb::parseCsv(QString::fromUtf8(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size)));
    return 0;
}
