#include "chat/StopStrings.h"

#include <algorithm>

namespace swb {

StopStrings::StopStrings(std::vector<std::string> stops)
{
    for (std::string& s : stops)
        if (!s.empty())
            m_stops.push_back(std::move(s));
}

std::string StopStrings::push(const std::string& text)
{
    if (stopped())
        return {};
    m_held += text;
    if (m_stops.empty()) {
        std::string out;
        out.swap(m_held);
        return out;
    }
    // The earliest complete match wins (the longest one at that position).
    std::size_t best = std::string::npos;
    for (std::size_t i = 0; i < m_stops.size(); ++i) {
        const std::size_t at = m_held.find(m_stops[i]);
        if (at == std::string::npos)
            continue;
        if (at < best || (at == best && m_stops[i].size() > m_stops[std::size_t(m_matched)].size())) {
            best = at;
            m_matched = int(i);
        }
    }
    if (best != std::string::npos) {
        std::string out = m_held.substr(0, best);
        m_held.clear();
        return out;
    }
    // Hold back the longest tail of the text that begins some stop string.
    std::size_t keep = 0;
    for (const std::string& stop : m_stops) {
        const std::size_t longest = std::min(stop.size() - 1, m_held.size());
        for (std::size_t n = longest; n > keep; --n)
            if (m_held.compare(m_held.size() - n, n, stop, 0, n) == 0) {
                keep = n;
                break;
            }
    }
    std::string out = m_held.substr(0, m_held.size() - keep);
    m_held.erase(0, m_held.size() - keep);
    return out;
}

std::string StopStrings::flush()
{
    std::string out;
    if (!stopped())
        out.swap(m_held);
    m_held.clear();
    return out;
}

} // namespace swb
