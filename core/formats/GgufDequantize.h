#pragma once

#include <cstdint>

#include <QString>

// ggml's type ids and names. Decoding and multiplying the weight types is the kernels' work
// (model/kernels/WeightType.h).

namespace swb {

// GGML tensor type ids (enum ggml_type), the ones this project reads plus their neighbours for naming.
struct GgmlTypeId {
    static constexpr std::uint32_t F32 = 0;
    static constexpr std::uint32_t F16 = 1;
    static constexpr std::uint32_t Q4_0 = 2;
    static constexpr std::uint32_t Q4_1 = 3;
    static constexpr std::uint32_t Q5_0 = 6;
    static constexpr std::uint32_t Q5_1 = 7;
    static constexpr std::uint32_t Q8_0 = 8;
    static constexpr std::uint32_t Q8_1 = 9;
    static constexpr std::uint32_t Q2_K = 10;
    static constexpr std::uint32_t Q3_K = 11;
    static constexpr std::uint32_t Q4_K = 12;
    static constexpr std::uint32_t Q5_K = 13;
    static constexpr std::uint32_t Q6_K = 14;
    static constexpr std::uint32_t Q8_K = 15;
    static constexpr std::uint32_t BF16 = 30;
};

// Lower-case name of a GGML type ("f32", "q4_k", ...), or "type N" for one we do not know.
QString ggmlTypeName(std::uint32_t type);

} // namespace swb
