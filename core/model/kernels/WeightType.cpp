#include "model/kernels/WeightType.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "formats/GgufDequantize.h"
#include "model/kernels/KernelSupport.h"
#include "model/kernels/TypeKernels.h"

namespace swb::kernels {

namespace detail {

int widestPath() {
    // Every extension the avx512 namespace is compiled for (KernelTargets.inc).
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c"))
        return 0;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c"))
        return 1;
    return 2;
}

std::atomic<int> g_path{widestPath()};

} // namespace detail

const WeightTraits& traits(WeightType type) {
    switch (type) {
    case WeightType::F32:
        return kF32Traits;
    case WeightType::F16:
        return kF16Traits;
    case WeightType::BF16:
        return kBF16Traits;
    case WeightType::Q8_0:
        return kQ8_0Traits;
    case WeightType::Q4_0:
        return kQ4_0Traits;
    case WeightType::Q4_1:
        return kQ4_1Traits;
    case WeightType::Q5_0:
        return kQ5_0Traits;
    case WeightType::Q5_1:
        return kQ5_1Traits;
    case WeightType::Q2_K:
        return kQ2_KTraits;
    case WeightType::Q3_K:
        return kQ3_KTraits;
    case WeightType::Q4_K:
        return kQ4_KTraits;
    case WeightType::Q5_K:
        return kQ5_KTraits;
    case WeightType::Q6_K:
        return kQ6_KTraits;
    }
    return kF32Traits;
}

std::size_t rowBytes(WeightType type, std::int64_t n) {
    const WeightTraits& t = traits(type);
    if (n <= 0 || n % t.blockElements != 0)
        return 0;
    return static_cast<std::size_t>(n / t.blockElements) * static_cast<std::size_t>(t.blockBytes);
}

namespace {

// Each weight type beside its ggml type id.
constexpr std::pair<WeightType, std::uint32_t> kGgmlIds[] = {
    {WeightType::F32, GgmlTypeId::F32},   {WeightType::F16, GgmlTypeId::F16},   {WeightType::BF16, GgmlTypeId::BF16},
    {WeightType::Q8_0, GgmlTypeId::Q8_0}, {WeightType::Q4_0, GgmlTypeId::Q4_0}, {WeightType::Q4_1, GgmlTypeId::Q4_1},
    {WeightType::Q5_0, GgmlTypeId::Q5_0}, {WeightType::Q5_1, GgmlTypeId::Q5_1}, {WeightType::Q2_K, GgmlTypeId::Q2_K},
    {WeightType::Q3_K, GgmlTypeId::Q3_K}, {WeightType::Q4_K, GgmlTypeId::Q4_K}, {WeightType::Q5_K, GgmlTypeId::Q5_K},
    {WeightType::Q6_K, GgmlTypeId::Q6_K},
};

} // namespace

std::optional<WeightType> fromGgml(std::uint32_t ggmlType) {
    for (const auto& [type, id] : kGgmlIds)
        if (id == ggmlType)
            return type;
    return std::nullopt;
}

std::uint32_t toGgml(WeightType type) {
    for (const auto& [t, id] : kGgmlIds)
        if (t == type)
            return id;
    return GgmlTypeId::F32; // unreachable: every type is in the table
}

std::optional<WeightType> fromName(std::string_view name) {
    for (const auto& [type, id] : kGgmlIds)
        if (name == traits(type).name)
            return type;
    return std::nullopt;
}

void groupSums16(const float* x, std::int64_t n, float* sums) {
    for (std::int64_t g = 0; g < n / 16; ++g) {
        float s = 0.0f;
        for (int i = 0; i < 16; ++i)
            s += x[16 * g + i];
        sums[g] = s;
    }
}

void quantizeActivations(const float* x, std::int64_t n, int block, std::int8_t* q, float* d, std::int16_t* sums) {
    for (std::int64_t b = 0; b < n / block; ++b) {
        const float* xb = x + b * block;
        float largest = 0.0f;
        bool finite = true;
        for (int i = 0; i < block; ++i) {
            finite = finite && std::isfinite(xb[i]);
            largest = std::max(largest, std::fabs(xb[i]));
        }
        // Divided, not multiplied by 1 / scale: that reciprocal overflows for a block of tiny values.
        const float scale = largest / 127.0f;
        for (int i = 0; i < block; ++i)
            q[b * block + i] = finite && scale > 0.0f
                                   ? static_cast<std::int8_t>(std::clamp(std::nearbyint(xb[i] / scale), -127.0f, 127.0f))
                                   : 0;
        d[b] = finite ? scale : std::numeric_limits<float>::quiet_NaN();
    }
    for (std::int64_t g = 0; g < n / 16; ++g) {
        int sum = 0;
        for (int i = 0; i < 16; ++i)
            sum += q[16 * g + i];
        sums[g] = static_cast<std::int16_t>(sum);
    }
}

KernelPath kernelPath() {
    return static_cast<KernelPath>(detail::g_path.load());
}

KernelPath setKernelPath(KernelPath widest) {
    detail::g_path.store(std::max(static_cast<int>(widest), detail::widestPath()));
    return kernelPath();
}

const char* kernelPathName(KernelPath path) {
    switch (path) {
    case KernelPath::Avx512:
        return "avx512";
    case KernelPath::Avx2:
        return "avx2";
    case KernelPath::Portable:
        return "portable";
    }
    return "portable";
}

} // namespace swb::kernels
