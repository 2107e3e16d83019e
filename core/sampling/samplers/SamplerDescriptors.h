#pragma once

// One descriptor function per sampler class (each defined next to its class).

#include "sampling/SamplerRegistry.h"

namespace swb {

SamplerDescriptor temperatureDescriptor();
SamplerDescriptor dynatempDescriptor();
SamplerDescriptor topKDescriptor();
SamplerDescriptor topPDescriptor();
SamplerDescriptor minPDescriptor();
SamplerDescriptor typicalDescriptor();
SamplerDescriptor epsilonDescriptor();
SamplerDescriptor etaDescriptor();
SamplerDescriptor topNSigmaDescriptor();
SamplerDescriptor xtcDescriptor();
SamplerDescriptor repetitionDescriptor();
SamplerDescriptor penaltiesDescriptor();
SamplerDescriptor dryDescriptor();
SamplerDescriptor noRepeatNgramDescriptor();
SamplerDescriptor logitBiasDescriptor();
SamplerDescriptor bannedTokensDescriptor();
SamplerDescriptor bannedWordsDescriptor();
SamplerDescriptor grammarDescriptor();
SamplerDescriptor distDescriptor();
SamplerDescriptor greedyDescriptor();
SamplerDescriptor mirostatDescriptor();
SamplerDescriptor mirostatV2Descriptor();
SamplerDescriptor topADescriptor();
SamplerDescriptor tfsDescriptor();
SamplerDescriptor smoothingDescriptor();
SamplerDescriptor topHDescriptor();
SamplerDescriptor adaptivePDescriptor();

} // namespace swb
