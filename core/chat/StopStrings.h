#pragma once

#include <string>
#include <vector>

namespace swb {

// Finds stop strings in generated text as it streams, across token boundaries: text that could still
// be the start of a stop string is held back until it is known not to be; the stop string itself and
// anything after it is never emitted (OpenAI's `stop`). Only generated text is fed in, so a stop string
// that appears in the prompt never stops a run. Feed whole UTF-8 characters (StreamingDecoder's output).
class StopStrings {
public:
    StopStrings() = default;
    explicit StopStrings(std::vector<std::string> stops);

    bool empty() const { return m_stops.empty(); }
    // Adds newly decoded text; returns the text that is now safe to show. After a match, returns the text
    // before the stop string and stopped() becomes true; later calls return nothing.
    std::string push(const std::string& text);
    // At the end of a run without a match: whatever was held back.
    std::string flush();
    bool stopped() const { return m_matched >= 0; }
    // The stop string that matched; empty when none did.
    std::string matched() const { return m_matched >= 0 ? m_stops[std::size_t(m_matched)] : std::string(); }

private:
    std::vector<std::string> m_stops;
    std::string m_held;
    int m_matched = -1;
};

} // namespace swb
