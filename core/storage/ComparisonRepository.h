#pragma once

#include <optional>
#include <vector>

#include <QDateTime>
#include <QString>

#include "Result.h"

namespace swb {

class Database;

// Two or more runs on one prompt, shown side by side. Each slot is one strategy's run; blind
// mode shows slots under labels A, B, C… in a recorded, shuffled presentation order.
struct ComparisonRecord {
    struct Entry {
        int slot = 0;
        qint64 runId = 0;
        QString blindLabel;
        int presentationOrder = 0;
        bool operator==(const Entry&) const = default;
    };
    qint64 id = 0;
    std::optional<qint64> promptId;
    QString promptText;
    int sampleIndex = 0;
    bool blind = true;
    bool isGold = false;
    QString goldWinner; // for gold comparisons: the expected winner (slot letter, "tie" or "bothbad")
    QString batchKey;
    QDateTime createdAt;
    std::vector<Entry> entries;
    bool operator==(const ComparisonRecord&) const = default;

    // The blind label of the output shown at position (from 0): A, B, …, Z, then AA, AB, …
    static QString labelAt(int position) {
        QString label;
        for (int n = position + 1; n > 0; n = (n - 1) / 26)
            label.prepend(QChar(static_cast<char16_t>(u'A' + (n - 1) % 26)));
        return label;
    }
};

// Prompt sets, prompts and comparisons.
class ComparisonRepository {
public:
    explicit ComparisonRepository(Database& database)
        : m_db(database) {}

    Result<qint64> savePromptSet(const QString& name, const QString& source);
    // Upserts the prompt at position in the set.
    Result<qint64> savePrompt(qint64 promptSetId, int position, const QString& text);

    // Saves the comparison and its entries in one transaction; sets id.
    Status saveComparison(ComparisonRecord& comparison);
    Result<ComparisonRecord> loadComparison(qint64 id);
    Result<std::vector<ComparisonRecord>> listComparisons();
    Result<std::optional<qint64>> findComparisonByBatchKey(const QString& key);
    // Marks a comparison as gold with its expected winner (a blind label, "tie" or "bothbad"), or unmarks it.
    Status setGold(qint64 id, bool gold, const QString& winner = {});

private:
    Database& m_db;
};

} // namespace swb
