#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <QString>

#include "Result.h"

namespace swb {

// The demo model's corpus: the King James Bible (public domain) as plain verses, one string per verse
// without its reference, read from Debian's bible-kjv package through its `bible` program. Every 50th
// verse (the 50th, 100th, ...) is held out for validation, so both splits cover every book.
class DemoCorpus {
public:
    static constexpr int kValidationEvery = 50;

    // program: the `bible` executable (found on PATH by default).
    static Result<DemoCorpus> extract(const QString& program = QStringLiteral("bible"));

    const std::vector<std::string>& trainingVerses() const { return m_training; }
    const std::vector<std::string>& validationVerses() const { return m_validation; }
    std::int64_t trainingBytes() const;
    std::int64_t validationBytes() const;

    // Writes verses to file, one per line (UTF-8, '\n' after each).
    static Status writeLines(const std::vector<std::string>& verses, const QString& file);

private:
    std::vector<std::string> m_training;
    std::vector<std::string> m_validation;
};

} // namespace swb
