#include "storage/StepBlob.h"

#include <bit>
#include <cstdint>
#include <cstring>

#include <QtEndian>

namespace swb::step_blob {

namespace {

template <typename T> void put(QByteArray& out, T value) {
    using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t,
                                    std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint8_t>>;
    const Bits little = qToLittleEndian(std::bit_cast<Bits>(value));
    out.append(reinterpret_cast<const char*>(&little), sizeof(little));
}

template <typename T> bool take(const QByteArray& in, qsizetype& offset, T& value) {
    using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t,
                                    std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint8_t>>;
    if (offset + static_cast<qsizetype>(sizeof(Bits)) > in.size())
        return false;
    Bits little;
    std::memcpy(&little, in.constData() + offset, sizeof(Bits));
    value = std::bit_cast<T>(qFromLittleEndian(little));
    offset += sizeof(Bits);
    return true;
}

} // namespace

QByteArray packAlternatives(const std::vector<TopCandidate>& top) {
    QByteArray out;
    out.reserve(static_cast<qsizetype>(top.size() * 16));
    for (const TopCandidate& candidate : top) {
        put<std::int32_t>(out, candidate.id);
        put<float>(out, candidate.logit);
        put<float>(out, candidate.rawP);
        put<float>(out, candidate.finalP);
    }
    return out;
}

std::optional<std::vector<TopCandidate>> unpackAlternatives(const QByteArray& blob) {
    if (blob.size() % 16 != 0)
        return std::nullopt;
    std::vector<TopCandidate> top(static_cast<std::size_t>(blob.size() / 16));
    qsizetype offset = 0;
    for (TopCandidate& candidate : top) {
        std::int32_t id = 0;
        take(blob, offset, id);
        candidate.id = id;
        take(blob, offset, candidate.logit);
        take(blob, offset, candidate.rawP);
        take(blob, offset, candidate.finalP);
    }
    return top;
}

QByteArray packStages(const std::vector<StageTrace>& stages) {
    QByteArray out;
    for (const StageTrace& stage : stages) {
        const QByteArray name = stage.sampler.toUtf8().left(255);
        put<std::uint8_t>(out, static_cast<std::uint8_t>(name.size()));
        out.append(name);
        put<std::int32_t>(out, stage.kept);
        put<double>(out, stage.keptMass);
        put<double>(out, stage.threshold);
    }
    return out;
}

std::optional<std::vector<StageTrace>> unpackStages(const QByteArray& blob) {
    std::vector<StageTrace> stages;
    qsizetype offset = 0;
    while (offset < blob.size()) {
        std::uint8_t length = 0;
        if (!take(blob, offset, length) || offset + length > blob.size())
            return std::nullopt;
        StageTrace stage;
        stage.sampler = QString::fromUtf8(blob.constData() + offset, length);
        offset += length;
        std::int32_t kept = 0;
        if (!take(blob, offset, kept) || !take(blob, offset, stage.keptMass) || !take(blob, offset, stage.threshold))
            return std::nullopt;
        stage.kept = kept;
        stages.push_back(std::move(stage));
    }
    return stages;
}

QByteArray packIds(const std::vector<TokenId>& ids) {
    QByteArray out;
    out.reserve(static_cast<qsizetype>(ids.size() * 4));
    for (TokenId id : ids)
        put<std::int32_t>(out, id);
    return out;
}

std::optional<std::vector<TokenId>> unpackIds(const QByteArray& blob) {
    if (blob.size() % 4 != 0)
        return std::nullopt;
    std::vector<TokenId> ids(static_cast<std::size_t>(blob.size() / 4));
    qsizetype offset = 0;
    for (TokenId& id : ids) {
        std::int32_t value = 0;
        take(blob, offset, value);
        id = value;
    }
    return ids;
}

} // namespace swb::step_blob
