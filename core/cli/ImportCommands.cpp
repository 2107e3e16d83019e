// swb import-ratings, swb import-preferences: human judgements from CSV into the run store.
// A file is imported whole or not at all: every row is checked first, every bad row is reported by its
// line number, and the rows are written in one transaction.

#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QStringDecoder>

#include "cli/RunStoreArgument.h"
#include "cli/Subcommand.h"
#include "evaluation/PromptFile.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RatingRepository.h"
#include "storage/RunRepository.h"

namespace swb::cli {

namespace {

// A CSV file with a header row, read record by record in chunks (a file of a million rows is never held
// whole); rows carry the line they start on.
class CsvInput {
public:
    struct Row {
        int line = 0;
        QStringList cells;
    };

    CsvInput(const QString& path, const QStringList& required, const QString& usage)
        : m_path(path)
        , m_file(path) {
        if (!m_file.open(QIODevice::ReadOnly))
            failBadInput(QStringLiteral("cannot read %1: %2").arg(path, m_file.errorString()));
        Row header;
        if (!next(header, false))
            failBadInput(QStringLiteral("%1 is empty; it needs a header row with %2").arg(path, usage));
        for (qsizetype c = 0; c < header.cells.size(); ++c) {
            QString name = header.cells[c].trimmed().toLower();
            if (c == 0 && name.startsWith(QChar(0xFEFF))) // a byte-order mark, as spreadsheets write
                name.remove(0, 1);
            if (m_columns.contains(name))
                failBadInput(QStringLiteral("%1 names the column '%2' twice").arg(path, name));
            m_columns.insert(name, static_cast<int>(c));
        }
        m_width = static_cast<int>(header.cells.size());
        for (const QString& column : required)
            if (!m_columns.contains(column))
                failBadInput(QStringLiteral("%1 has no column '%2' (it needs %3)").arg(path, column, usage));
    }

    // The next row (blank lines skipped); false at the end of the file.
    bool next(Row& row, bool skipBlank = true) {
        for (;;) {
            while (m_ready < m_records.size()) {
                CsvRecord& record = m_records[m_ready++];
                if (skipBlank && record.cells.size() == 1 && record.cells.first().trimmed().isEmpty())
                    continue;
                row = {record.line, std::move(record.cells)};
                return true;
            }
            m_records.clear();
            m_ready = 0;
            if (m_ended)
                return false;
            const QByteArray chunk = m_file.read(1 << 20);
            if (chunk.isEmpty()) {
                if (m_file.error() != QFileDevice::NoError)
                    failBadInput(QStringLiteral("cannot read %1: %2").arg(m_path, m_file.errorString()));
                checkUtf8(m_lineTail, 1); // the last line, with or without its newline
                m_ended = true;
                if (Status status = m_parser.finish(m_records); !status)
                    failBadInput(QStringLiteral("cannot import %1: %2").arg(m_path, status.error().message));
            } else {
                // Whole lines are checked (a character cut at the chunk's end joins the next chunk), so
                // that the line named is the one to fix.
                const qsizetype lastNewline = chunk.lastIndexOf('\n');
                if (lastNewline < 0) {
                    m_lineTail += chunk;
                } else {
                    checkUtf8(m_lineTail + chunk.left(lastNewline + 1), 0);
                    m_lineTail = chunk.mid(lastNewline + 1);
                }
                m_parser.feed(QString(m_decoder(chunk)), m_records);
            }
        }
    }

    QString cell(const Row& row, const QString& column) const {
        const int index = m_columns.value(column, -1);
        return index >= 0 && index < row.cells.size() ? row.cells[index].trimmed() : QString();
    }
    // A cell as written (a note keeps its spaces); null without that column.
    QString raw(const Row& row, const QString& column) const {
        const int index = m_columns.value(column, -1);
        return index >= 0 && index < row.cells.size() ? row.cells[index] : QString();
    }
    bool has(const QString& column) const { return m_columns.contains(column); }
    int width() const { return m_width; }
    const QString& path() const { return m_path; }

private:
    // Whole lines (plus `extra` lines without a newline at the end of the file): one sentence naming the first
    // that is not UTF-8.
    void checkUtf8(const QByteArray& lines, int extra) {
        if (!lines.isValidUtf8()) {
            qsizetype line = m_linesChecked;
            for (const QByteArray& piece : lines.split('\n')) {
                ++line;
                if (!piece.isValidUtf8())
                    break;
            }
            failBadInput(QStringLiteral("%1 line %2 is not valid UTF-8 text; save the file as UTF-8").arg(m_path).arg(line));
        }
        m_linesChecked += lines.count('\n') + extra;
    }

    QString m_path;
    QFile m_file;
    QByteArray m_lineTail;        // the bytes after the last newline read so far
    qsizetype m_linesChecked = 0; // lines before m_lineTail
    QStringDecoder m_decoder{QStringDecoder::Utf8};
    CsvParser m_parser;
    std::vector<CsvRecord> m_records;
    std::size_t m_ready = 0;
    bool m_ended = false;
    QHash<QString, int> m_columns; // lower-case header name -> index
    int m_width = 0;
};

// Collects the problems of a file, one line each, and refuses the whole file when there are any.
class RowErrors {
public:
    RowErrors(const Invocation& call, const CsvInput& input)
        : m_call(call)
        , m_input(input) {}

    void add(const CsvInput::Row& row, const QString& problem) {
        m_call.err << QStringLiteral("swb: %1 line %2: %3\n").arg(m_input.path()).arg(row.line).arg(problem);
        ++m_count;
    }
    // Cells beyond the header, or missing ones, are an error of the row.
    bool checkWidth(const CsvInput::Row& row) {
        if (row.cells.size() == m_input.width())
            return true;
        add(row, QStringLiteral("has %1 fields, the header has %2").arg(row.cells.size()).arg(m_input.width()));
        return false;
    }
    int count() const { return m_count; }
    void failIfAny() const {
        if (m_count == 0)
            return;
        m_call.err.flush();
        failBadInput(QStringLiteral("nothing was imported from %1: %2 %3 errors")
                         .arg(m_input.path())
                         .arg(m_count)
                         .arg(m_count == 1 ? QStringLiteral("row has") : QStringLiteral("rows have")));
    }

private:
    const Invocation& m_call;
    const CsvInput& m_input;
    int m_count = 0;
};

// A rating's identity within one import: run, rater and the dimension's index in the rubric.
struct RatingKey {
    qint64 run = 0;
    qint64 rater = 0;
    int dimension = 0;
    bool operator==(const RatingKey&) const = default;
};
struct RatingKeyHash {
    std::size_t operator()(const RatingKey& k) const {
        return std::hash<qint64>()(k.run * 1000003 + k.rater * 31 + k.dimension);
    }
};

std::optional<qint64> positiveId(const QString& text) {
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    if (!ok || value <= 0)
        return std::nullopt;
    return value;
}

QSet<qint64> allRunIds(Database& database) {
    Result<std::vector<qint64>> ids = RunRepository(database).runIds();
    if (!ids)
        failBadInput(ids.error().message);
    return QSet<qint64>(ids->begin(), ids->end());
}

void begin(Database::Transaction& transaction) {
    if (Status status = transaction.begin(); !status)
        failBadInput(status.error().message);
}

void commit(Database::Transaction& transaction) {
    if (Status status = transaction.commit(); !status)
        failBadInput(status.error().message);
}

// A checked row waiting to be written: its line, its rater's name and the record (rating or preference).
template <typename Record> struct Pending {
    int line = 0;
    QString rater;
    Record record;
};

// Writes the checked rows (creating raters by name) and returns how many raters they name.
template <typename Record, typename Save>
qsizetype saveAll(std::vector<Pending<Record>>& pending, RatingRepository& ratings, const QString& csvPath,
                  const Save& save) {
    QSet<QString> raters;
    for (Pending<Record>& p : pending) {
        Result<qint64> rater = ratings.raterId(p.rater);
        if (!rater)
            failBadInput(QStringLiteral("%1 line %2: %3").arg(csvPath).arg(p.line).arg(rater.error().message));
        p.record.raterId = rater.value();
        raters.insert(p.rater);
        if (Status status = save(p.record); !status)
            failBadInput(QStringLiteral("%1 line %2: %3").arg(csvPath).arg(p.line).arg(status.error().message));
    }
    return raters.size();
}

int runImportRatings(const Invocation& call) {
    // Every row of an import carries the time of the import: one event, however long writing it takes (the
    // raters' pace is not timed from imported answers).
    const QDateTime importedAt = QDateTime::currentDateTimeUtc();
    const QString csvPath = call.required(QStringLiteral("csv"));
    std::unique_ptr<Database> database = openExistingRunStore(call.required(QStringLiteral("db")));
    const QString usage = QStringLiteral("run_id, rater, dimension, score and optionally note");
    CsvInput input(
        csvPath,
        {QStringLiteral("run_id"), QStringLiteral("rater"), QStringLiteral("dimension"), QStringLiteral("score")},
        usage);

    Database::Transaction transaction(*database);
    begin(transaction);
    RatingRepository ratings(*database);
    const QString rubricName = call.args.isSet(QStringLiteral("rubric")) ? call.args.value(QStringLiteral("rubric"))
                                                                         : QString::fromLatin1(Rubric::kDefaultName);
    Rubric rubric;
    if (rubricName == QLatin1String(Rubric::kDefaultName)) {
        Result<Rubric> found = ratings.defaultRubric();
        if (!found)
            failBadInput(found.error().message);
        rubric = found.value();
    } else {
        Result<std::optional<Rubric>> found = ratings.findRubric(rubricName);
        if (!found)
            failBadInput(found.error().message);
        if (!found.value())
            failBadInput(QStringLiteral("there is no rubric '%1' in %2").arg(rubricName, database->path()));
        rubric = *found.value();
    }

    const QSet<qint64> runIds = allRunIds(*database);
    RatingRepository::RatingWriter writer(ratings, rubric);
    RowErrors errors(call, input);
    // Written as they are read, in the one transaction, until a row fails: then only checked, and nothing
    // is kept (the transaction is rolled back). Raters by name and the ratings already in the file by
    // (run, rater, dimension), compactly: a million rows take tens of megabytes, not the file's size.
    QHash<QString, qint64> raterIds;
    std::unordered_map<RatingKey, int, RatingKeyHash> seen;
    qint64 imported = 0;
    CsvInput::Row row;
    while (input.next(row)) {
        if (!errors.checkWidth(row))
            continue;
        QStringList problems;
        const QString runText = input.cell(row, QStringLiteral("run_id"));
        const std::optional<qint64> runId = positiveId(runText);
        if (!runId)
            problems << QStringLiteral("run_id '%1' is not a run id").arg(runText);
        else if (!runIds.contains(*runId))
            problems << QStringLiteral("there is no run %1").arg(*runId);
        const QString rater = input.cell(row, QStringLiteral("rater"));
        if (rater.isEmpty())
            problems << QStringLiteral("the rater is empty");
        const QString dimensionName = input.cell(row, QStringLiteral("dimension"));
        const RubricDimension* dimension = rubric.dimension(dimensionName);
        if (!dimension) {
            QStringList known;
            for (const RubricDimension& d : rubric.dimensions)
                known << d.name;
            problems << QStringLiteral("the rubric '%1' has no dimension '%2' (it has %3)")
                            .arg(rubric.name, dimensionName, known.join(QStringLiteral(", ")));
        }
        const QString scoreText = input.cell(row, QStringLiteral("score"));
        bool numeric = false;
        const double score = scoreText.toDouble(&numeric);
        if (!numeric || !std::isfinite(score))
            problems << QStringLiteral("the score '%1' is not a number").arg(scoreText);
        else if (dimension && (score < dimension->min || score > dimension->max))
            problems << QStringLiteral("the score %1 is outside %2 to %3 of '%4'")
                            .arg(scoreText)
                            .arg(dimension->min)
                            .arg(dimension->max)
                            .arg(dimension->name);
        qint64 raterId = 0;
        if (problems.isEmpty()) {
            auto known = raterIds.find(rater);
            if (known == raterIds.end()) {
                Result<qint64> id = ratings.raterId(rater);
                if (!id)
                    failBadInput(QStringLiteral("%1 line %2: %3").arg(csvPath).arg(row.line).arg(id.error().message));
                known = raterIds.insert(rater, id.value());
            }
            raterId = known.value();
            const auto [previous, fresh] = seen.emplace(
                RatingKey{*runId, raterId, static_cast<int>(dimension - rubric.dimensions.data())}, row.line);
            if (!fresh)
                problems << QStringLiteral("repeats the rating of line %1").arg(previous->second);
        }
        if (!problems.isEmpty()) {
            errors.add(row, problems.join(QStringLiteral("; ")));
            continue;
        }
        if (errors.count() > 0)
            continue; // the file will not be imported: check the rest, write nothing more
        RatingRecord rating;
        rating.createdAt = importedAt;
        rating.runId = *runId;
        rating.raterId = raterId;
        rating.dimension = dimensionName;
        rating.score = score;
        rating.note = input.raw(row, QStringLiteral("note"));
        if (Status status = writer.save(rating); !status)
            failBadInput(QStringLiteral("%1 line %2: %3").arg(csvPath).arg(row.line).arg(status.error().message));
        ++imported;
    }
    errors.failIfAny();
    commit(transaction);
    const QJsonObject summary{{QStringLiteral("ratings_imported"), imported},
                              {QStringLiteral("raters"), static_cast<qint64>(raterIds.size())},
                              {QStringLiteral("rubric"), rubric.name},
                              {QStringLiteral("db"), database->path()}};
    call.out << QJsonDocument(summary).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}

int runImportPreferences(const Invocation& call) {
    // Every row of an import carries the time of the import: one event, however long writing it takes (the
    // raters' pace is not timed from imported answers).
    const QDateTime importedAt = QDateTime::currentDateTimeUtc();
    const QString csvPath = call.required(QStringLiteral("csv"));
    std::unique_ptr<Database> database = openExistingRunStore(call.required(QStringLiteral("db")));
    const QString usage = QStringLiteral("comparison_id, rater, winner and optionally note");
    CsvInput input(csvPath, {QStringLiteral("comparison_id"), QStringLiteral("rater"), QStringLiteral("winner")}, usage);

    Database::Transaction transaction(*database);
    begin(transaction);
    Result<std::vector<ComparisonRecord>> list = ComparisonRepository(*database).listComparisons();
    if (!list)
        failBadInput(list.error().message);
    std::map<qint64, ComparisonRecord> comparisons;
    for (ComparisonRecord& comparison : list.value())
        comparisons.emplace(comparison.id, std::move(comparison));

    RowErrors errors(call, input);
    std::map<std::pair<qint64, QString>, int> seen;
    std::vector<Pending<PreferenceRecord>> pending;
    CsvInput::Row row;
    while (input.next(row)) {
        if (!errors.checkWidth(row))
            continue;
        QStringList problems;
        const QString idText = input.cell(row, QStringLiteral("comparison_id"));
        const std::optional<qint64> comparisonId = positiveId(idText);
        const ComparisonRecord* comparison = nullptr;
        if (!comparisonId)
            problems << QStringLiteral("comparison_id '%1' is not a comparison id").arg(idText);
        else if (const auto found = comparisons.find(*comparisonId); found == comparisons.end())
            problems << QStringLiteral("there is no comparison %1").arg(*comparisonId);
        else
            comparison = &found->second;
        const QString rater = input.cell(row, QStringLiteral("rater"));
        if (rater.isEmpty())
            problems << QStringLiteral("the rater is empty");
        const QString winner = input.cell(row, QStringLiteral("winner"));
        PreferenceRecord preference;
        preference.createdAt = importedAt;
        if (const auto kind = PreferenceRecord::winnerFromName(winner.toLower());
            kind && *kind != PreferenceWinner::Slot) {
            preference.winner = *kind;
        } else if (comparison) {
            QStringList labels;
            for (const ComparisonRecord::Entry& entry : comparison->entries) {
                labels << entry.blindLabel;
                if (!winner.isEmpty() && entry.blindLabel.compare(winner, Qt::CaseInsensitive) == 0) {
                    preference.winner = PreferenceWinner::Slot;
                    preference.winnerSlot = entry.slot;
                }
            }
            if (!preference.winnerSlot)
                problems << QStringLiteral("the winner '%1' is none of %2, tie or bothbad")
                                .arg(winner, labels.join(QStringLiteral(", ")));
        }
        if (problems.isEmpty()) {
            const auto [previous, fresh] = seen.emplace(std::pair{*comparisonId, rater}, row.line);
            if (!fresh)
                problems << QStringLiteral("repeats the preference of line %1").arg(previous->second);
        }
        if (!problems.isEmpty()) {
            errors.add(row, problems.join(QStringLiteral("; ")));
            continue;
        }
        preference.comparisonId = *comparisonId;
        preference.note =
            input.raw(row, QStringLiteral("note"));
        pending.push_back({row.line, rater, preference});
    }
    errors.failIfAny();

    RatingRepository ratings(*database);
    const qsizetype raters = saveAll(pending, ratings, csvPath,
                                     [&](PreferenceRecord& preference) { return ratings.savePreference(preference); });
    commit(transaction);
    const QJsonObject summary{{QStringLiteral("preferences_imported"), static_cast<qint64>(pending.size())},
                              {QStringLiteral("raters"), static_cast<qint64>(raters)},
                              {QStringLiteral("db"), database->path()}};
    call.out << QJsonDocument(summary).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}

// Sets a rater aside (with the reason) or counts them again: every report is then computed without (or with)
// their ratings and preferences; nothing is deleted.
int runRater(const Invocation& call) {
    const QString name = call.required(QStringLiteral("name"));
    const bool restore = call.args.isSet(QStringLiteral("restore"));
    const QString reason = call.args.value(QStringLiteral("set-aside")).trimmed();
    if (restore == call.args.isSet(QStringLiteral("set-aside")))
        failBadInput(QStringLiteral("give either --set-aside REASON or --restore"));
    if (!restore && reason.isEmpty())
        failBadInput(QStringLiteral("--set-aside needs a reason (it is recorded with the rater)"));
    std::unique_ptr<Database> database = openExistingRunStore(call.required(QStringLiteral("db")));
    if (Status status = RatingRepository(*database).setRaterAside(name, restore ? QString() : reason); !status)
        failBadInput(status.error().message);
    const QJsonObject summary{{QStringLiteral("rater"), name.trimmed()},
                              {QStringLiteral("set_aside"), restore ? QJsonValue() : QJsonValue(reason)},
                              {QStringLiteral("db"), database->path()}};
    call.out << QJsonDocument(summary).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}

} // namespace

std::vector<Subcommand> importSubcommands() {
    return {
        {QStringLiteral("import-ratings"), QStringLiteral("swb import-ratings --db FILE --csv FILE [--rubric NAME]"),
         QStringLiteral("Import rubric scores (run_id, rater, dimension, score[, note]); all rows or none."),
         [](QCommandLineParser& parser) {
             parser.addOptions({
                 {QStringLiteral("db"), QStringLiteral("Run store file."), QStringLiteral("FILE")},
                 {QStringLiteral("csv"), QStringLiteral("CSV file with a header row."), QStringLiteral("FILE")},
                 {QStringLiteral("rubric"),
                  QStringLiteral("Rubric the scores belong to (default: 'default', relevance 0-3, fluency 0-2, "
                                 "usefulness 0-4)."),
                  QStringLiteral("NAME")},
             });
         },
         runImportRatings},
        {QStringLiteral("import-preferences"), QStringLiteral("swb import-preferences --db FILE --csv FILE"),
         QStringLiteral("Import blind preferences (comparison_id, rater, winner = label|tie|bothbad[, note]); all "
                        "rows or none."),
         [](QCommandLineParser& parser) {
             parser.addOptions({
                 {QStringLiteral("db"), QStringLiteral("Run store file."), QStringLiteral("FILE")},
                 {QStringLiteral("csv"), QStringLiteral("CSV file with a header row."), QStringLiteral("FILE")},
             });
         },
         runImportPreferences},
        {QStringLiteral("rater"), QStringLiteral("swb rater --db FILE --name NAME (--set-aside REASON | --restore)"),
         QStringLiteral("Set a rater aside with a reason (every report leaves their ratings and preferences out), or "
                        "count them again."),
         [](QCommandLineParser& parser) {
             parser.addOptions({
                 {QStringLiteral("db"), QStringLiteral("Run store file."), QStringLiteral("FILE")},
                 {QStringLiteral("name"), QStringLiteral("The rater."), QStringLiteral("NAME")},
                 {QStringLiteral("set-aside"), QStringLiteral("Set them aside, recording why."), QStringLiteral("REASON")},
                 {QStringLiteral("restore"), QStringLiteral("Count their ratings and preferences again.")},
             });
         },
         runRater},
    };
}

} // namespace swb::cli
