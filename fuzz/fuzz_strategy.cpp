// Strategy JSON (or a preset name): parsed, made into a chain, and run on one fixed logits row.
#include <cmath>
#include <vector>

#include <QCoreApplication>

#include "FuzzSupport.h"
#include "sampling/SamplerChain.h"
#include "sampling/Strategy.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    swb::Result<swb::Strategy> strategy = swb::Strategy::parse(text);
    if (!strategy)
        return 0;
    (void)strategy->toJson();
    (void)strategy->hash();
    swb::Result<swb::SamplerChain> chain = swb::SamplerChain::build(strategy.value(), &swb::fuzz::demoTokenizer(), 7);
    if (!chain)
        return 0;
    std::vector<float> logits(256);
    for (std::size_t i = 0; i < logits.size(); ++i)
        logits[i] = std::sin(float(i) * 0.37f) * 4.0f;
    std::vector<swb::TokenId> history = {1, 5, 9, 5};
    for (int step = 0; step < 3; ++step) {
        swb::Result<swb::StepTrace> trace = chain->sample(logits, history, swb::TraceLevel::Full);
        if (!trace)
            break;
        chain->accept(trace->chosen);
        history.push_back(trace->chosen);
    }
    return 0;
}
