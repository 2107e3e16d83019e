#pragma once

#include <cstddef>
#include <cstdint>

#include <QString>

// Converting GGML tensor data (as stored in GGUF files) to float32, in plain C++. The block layouts
// and formulas are those of ggml (ggml-quants.c, ggml-common.h); the model dequantizes at load time.

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

// IEEE binary16 and bfloat16 bit patterns to float32 (exact).
float halfToFloat(std::uint16_t bits);
float bfloat16ToFloat(std::uint16_t bits);

// Lower-case name of a GGML type ("f32", "q4_k", ...), or "type N" for one we do not know.
QString ggmlTypeName(std::uint32_t type);

// Whether dequantizeGgml() handles this type: F32, F16, BF16, Q8_0, Q4_0, Q4_K, Q6_K.
bool ggmlTypeSupported(std::uint32_t type);
// Elements per block (1 for plain floats, 32 for Q8_0/Q4_0, 256 for the K-quants) and bytes per block;
// 0 for an unsupported type.
int ggmlBlockElements(std::uint32_t type);
int ggmlBlockBytes(std::uint32_t type);
// Bytes taken by `elements` values of this type, or 0 when unsupported or not a whole number of blocks.
std::size_t ggmlTensorBytes(std::uint32_t type, std::int64_t elements);

// Writes `elements` float32 values decoded from src (ggmlTensorBytes(type, elements) bytes) to dst.
// Returns false, writing nothing, when the type is unsupported or elements is not a multiple of its block.
bool dequantizeGgml(std::uint32_t type, const void* src, std::int64_t elements, float* dst);

} // namespace swb
