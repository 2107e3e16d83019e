#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <QString>

#include "Result.h"

namespace swb {

// The demo model's corpus: the King James Bible (public domain) as plain chapters, one string per
// chapter holding its verses without their references, one verse a line ('\n' between verses), read
// from Debian's bible-kjv package through its `bible` program. Every 25th chapter (the 25th, 50th, ...)
// is held out for validation, so both splits cover the whole Bible.
class DemoCorpus {
public:
    static constexpr int kValidationEvery = 25;

    // program: the `bible` executable (found on PATH by default).
    static Result<DemoCorpus> extract(const QString& program = QStringLiteral("bible"));

    const std::vector<std::string>& trainingChapters() const { return m_training; }
    const std::vector<std::string>& validationChapters() const { return m_validation; }
    std::int64_t trainingVerses() const { return m_trainingVerses; }
    std::int64_t validationVerses() const { return m_validationVerses; }
    std::int64_t trainingBytes() const;
    std::int64_t validationBytes() const;

    // Writes chapters to file, a blank line after each (UTF-8): the paragraphs `swb perplexity
    // --paragraphs` reads back as documents.
    static Status writeChapters(const std::vector<std::string>& chapters, const QString& file);

private:
    std::vector<std::string> m_training;
    std::vector<std::string> m_validation;
    std::int64_t m_trainingVerses = 0;
    std::int64_t m_validationVerses = 0;
};

} // namespace swb
