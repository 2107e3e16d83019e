#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "Rng.h"

namespace swb {

// Token text -> id for a whole vocabulary, as one flat open-addressing table: 8 bytes a slot, no node per
// token, built and probed without allocating. The texts are views the owner keeps alive and unchanged.
class TokenIndex {
public:
    void reserve(std::size_t tokens)
    {
        std::size_t capacity = 16;
        while (capacity < tokens * 2)
            capacity <<= 1;
        m_slots.assign(capacity, Slot{});
        m_mask = capacity - 1;
    }
    // Adds text as id; returns the id already there when the text is (and keeps that one).
    std::int32_t insert(std::string_view text, std::int32_t id)
    {
        if (m_texts.size() * 2 >= m_slots.size())
            grow();
        const std::uint32_t h = hash(text);
        for (std::size_t i = h & m_mask;; i = (i + 1) & m_mask) {
            Slot& slot = m_slots[i];
            if (slot.index < 0) {
                slot = Slot{h, static_cast<std::int32_t>(m_texts.size())};
                m_texts.push_back(text);
                m_ids.push_back(id);
                return id;
            }
            if (slot.hash == h && m_texts[std::size_t(slot.index)] == text)
                return m_ids[std::size_t(slot.index)];
        }
    }
    std::int32_t find(std::string_view text) const
    {
        if (m_slots.empty())
            return -1;
        const std::uint32_t h = hash(text);
        for (std::size_t i = h & m_mask;; i = (i + 1) & m_mask) {
            const Slot& slot = m_slots[i];
            if (slot.index < 0)
                return -1;
            if (slot.hash == h && m_texts[std::size_t(slot.index)] == text)
                return m_ids[std::size_t(slot.index)];
        }
    }
    std::size_t size() const { return m_texts.size(); }

private:
    struct Slot {
        std::uint32_t hash = 0;
        std::int32_t index = -1; // into m_texts / m_ids
    };
    static std::uint32_t hash(std::string_view text)
    {
        const std::size_t h = std::hash<std::string_view>{}(text);
        return static_cast<std::uint32_t>(h ^ (h >> 32));
    }
    void grow()
    {
        const std::vector<std::string_view> texts = std::move(m_texts);
        const std::vector<std::int32_t> ids = std::move(m_ids);
        m_texts.clear();
        m_ids.clear();
        reserve(std::max<std::size_t>(texts.size() * 2, 8));
        for (std::size_t i = 0; i < texts.size(); ++i)
            insert(texts[i], ids[i]);
    }

    std::vector<Slot> m_slots;
    std::size_t m_mask = 0;
    std::vector<std::string_view> m_texts;
    std::vector<std::int32_t> m_ids;
};

// BPE merge rules by the pair of token ids they join: (left, right) -> (rank, result), flat like TokenIndex.
class MergeTable {
public:
    struct Merge {
        std::int32_t rank = -1;
        std::int32_t result = -1;
    };
    void reserve(std::size_t merges)
    {
        std::size_t capacity = 16;
        while (capacity < merges * 2)
            capacity <<= 1;
        m_slots.assign(capacity, Slot{});
        m_mask = capacity - 1;
        m_count = 0;
    }
    // A pair already there keeps its first (best) rank.
    void insert(std::int32_t left, std::int32_t right, Merge merge)
    {
        if ((m_count + 1) * 2 > m_slots.size())
            grow();
        const std::uint64_t key = keyOf(left, right);
        for (std::size_t i = mix(key) & m_mask;; i = (i + 1) & m_mask) {
            Slot& slot = m_slots[i];
            if (slot.merge.rank < 0) {
                slot = Slot{key, merge};
                ++m_count;
                return;
            }
            if (slot.key == key)
                return;
        }
    }
    const Merge* find(std::int32_t left, std::int32_t right) const
    {
        if (m_slots.empty())
            return nullptr;
        const std::uint64_t key = keyOf(left, right);
        for (std::size_t i = mix(key) & m_mask;; i = (i + 1) & m_mask) {
            const Slot& slot = m_slots[i];
            if (slot.merge.rank < 0)
                return nullptr;
            if (slot.key == key)
                return &slot.merge;
        }
    }
    bool empty() const { return m_count == 0; }
    // Calls f(left, right, merge) for every rule, in no particular order.
    template <typename F> void forEach(F f) const {
        for (const Slot& slot : m_slots)
            if (slot.merge.rank >= 0)
                f(std::int32_t(slot.key >> 32), std::int32_t(slot.key & 0xffffffffu), slot.merge);
    }

private:
    struct Slot {
        std::uint64_t key = 0;
        Merge merge;
    };
    static std::uint64_t keyOf(std::int32_t left, std::int32_t right)
    {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
    }
    static std::uint64_t mix(std::uint64_t x) { return splitMix64Finalise(x); }
    void grow()
    {
        const std::vector<Slot> old = std::move(m_slots);
        reserve(std::max<std::size_t>(m_count * 2, 8));
        for (const Slot& slot : old)
            if (slot.merge.rank >= 0)
                insert(std::int32_t(slot.key >> 32), std::int32_t(slot.key & 0xffffffffu), slot.merge);
    }

    std::vector<Slot> m_slots;
    std::size_t m_mask = 0;
    std::size_t m_count = 0;
};

} // namespace swb
