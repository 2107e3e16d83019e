#pragma once

#include <optional>
#include <vector>

#include <QDateTime>
#include <QSqlQuery>
#include <QString>

#include "Result.h"

namespace swb {

class Database;

// One scored dimension of a rubric: scores are real numbers in [min, max].
struct RubricDimension {
    QString name;
    double min = 0.0;
    double max = 1.0;
    bool operator==(const RubricDimension&) const = default;
};

// A named set of dimensions raters score runs on. Stored as JSON:
// [{"name": "relevance", "min": 0, "max": 3}, ...]
struct Rubric {
    static constexpr auto kDefaultName = "default";

    qint64 id = 0;
    QString name;
    std::vector<RubricDimension> dimensions;

    const RubricDimension* dimension(const QString& name) const;
    // relevance 0-3, fluency 0-2, usefulness 0-4.
    static std::vector<RubricDimension> defaultDimensions();
    static Result<std::vector<RubricDimension>> parseDimensions(const QString& json);
    static QString dimensionsJson(const std::vector<RubricDimension>& dimensions);
};

struct RaterRecord {
    qint64 id = 0;
    QString name;
    QDateTime createdAt;
    QString setAside; // why the rater is set aside; empty while their ratings count
};

// One rater's score of one run on one dimension.
struct RatingRecord {
    qint64 id = 0;
    qint64 runId = 0;
    qint64 raterId = 0;
    QString raterName; // filled by the list queries
    std::optional<qint64> rubricId;
    QString dimension;
    double score = 0.0;
    QString note;
    QDateTime createdAt; // time of the last save
};

enum class PreferenceWinner { Slot, Tie, BothBad };

// One rater's verdict on one comparison: a slot won, a tie, or both (all) bad.
struct PreferenceRecord {
    qint64 id = 0;
    qint64 comparisonId = 0;
    qint64 raterId = 0;
    QString raterName; // filled by the list queries
    PreferenceWinner winner = PreferenceWinner::Tie;
    std::optional<int> winnerSlot; // set exactly when winner is Slot
    QString note;
    QDateTime createdAt; // time of the last save

    // "slot", "tie", "bothbad": the preferences.winner column.
    static QString winnerName(PreferenceWinner winner);
    static std::optional<PreferenceWinner> winnerFromName(const QString& name);
};

// How far a rater has got through the comparisons: preferences given out of comparisons stored.
struct RatingProgress {
    int rated = 0;
    int total = 0;
};

// Raters, rubrics, ratings (run x rater x dimension) and preferences (comparison x rater). Saves are
// upserts of single statements and open no transaction of their own, so an importer can put many of
// them in one Database::Transaction.
class RatingRepository {
public:
    explicit RatingRepository(Database& database)
        : m_db(database) {}

    // Get-or-create by name (trimmed; an empty name is bad input).
    Result<qint64> raterId(const QString& name);
    Result<std::optional<qint64>> findRater(const QString& name);
    Result<std::vector<RaterRecord>> listRaters();
    // Sets a rater aside with the reason (every report then leaves their ratings and preferences out), or
    // counts them again (reason empty). Nothing is deleted. One sentence for an unknown rater.
    Status setRaterAside(const QString& name, const QString& reason);

    // Creates the rubric or replaces its dimensions; validates them (names unique and non-empty,
    // min < max, finite).
    Result<Rubric> saveRubric(const QString& name, const std::vector<RubricDimension>& dimensions);
    Result<std::optional<Rubric>> findRubric(const QString& name);
    // The rubric "default" (Rubric::defaultDimensions()), created on first use.
    Result<Rubric> defaultRubric();
    Result<std::vector<Rubric>> listRubrics();

    // Upserts by (run, rater, dimension). The dimension must be in rubric and the score within its range;
    // sets rating.id, rubricId and createdAt.
    Status saveRating(RatingRecord& rating, const Rubric& rubric);
    // saveRating for many ratings of one rubric: the statement prepared once (an import of a million rows).
    class RatingWriter {
    public:
        RatingWriter(RatingRepository& repository, const Rubric& rubric);
        Status save(RatingRecord& rating);

    private:
        const Rubric& m_rubric;
        QSqlQuery m_upsert;
        Database& m_db;
    };
    Status deleteRating(qint64 runId, qint64 raterId, const QString& dimension);
    // Ordered by run, rater name, dimension.
    Result<std::vector<RatingRecord>> listRatings();
    Result<std::vector<RatingRecord>> ratingsOfRun(qint64 runId);

    // Upserts by (comparison, rater). A Slot winner must name a slot of the comparison.
    Status savePreference(PreferenceRecord& preference);
    Status deletePreference(qint64 comparisonId, qint64 raterId);
    // Ordered by id (the order they were first given).
    Result<std::vector<PreferenceRecord>> listPreferences();
    Result<std::optional<PreferenceRecord>> preference(qint64 comparisonId, qint64 raterId);

    // The first comparison after `after` (by id) that the rater has given no preference on.
    Result<std::optional<qint64>> nextUnratedComparison(qint64 raterId, qint64 after = 0);
    Result<RatingProgress> progress(qint64 raterId);

private:
    Result<Rubric> rubricFromRow(qint64 id, const QString& name, const QString& json) const;

    Database& m_db;
};

} // namespace swb
