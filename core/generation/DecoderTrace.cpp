#include "generation/DecoderTrace.h"

#include <QJsonArray>

namespace swb {

QString beamFateName(BeamCandidate::Fate fate) {
    switch (fate) {
    case BeamCandidate::Fate::Continued: return QStringLiteral("continued");
    case BeamCandidate::Fate::Finished: return QStringLiteral("finished");
    case BeamCandidate::Fate::Pruned: break;
    }
    return QStringLiteral("pruned");
}

namespace {

QJsonArray tokenArray(const std::vector<TokenId>& tokens) {
    QJsonArray out;
    for (TokenId t : tokens)
        out.append(t);
    return out;
}

Error damaged(const QString& what) {
    return Error::badInput(QStringLiteral("the run's decoder trace is damaged (%1)").arg(what));
}

} // namespace

QJsonObject decoderRecordToJson(const DecoderRecord& record) {
    QJsonObject json{{QStringLiteral("type"), record.type}};
    if (!record.steps.empty()) {
        QJsonArray steps;
        for (const DecoderStepTrace& step : record.steps) {
            QJsonArray candidates;
            for (const DecoderCandidate& c : step.candidates)
                candidates.append(QJsonArray{c.token, c.first, c.second, c.score, c.kept});
            QJsonObject s{{QStringLiteral("candidates"), candidates}};
            if (std::isfinite(step.threshold))
                s.insert(QStringLiteral("threshold"), step.threshold);
            steps.append(s);
        }
        json.insert(QStringLiteral("steps"), steps);
    }
    if (record.beam) {
        QJsonArray steps;
        for (const BeamStep& step : record.beam->steps) {
            QJsonArray candidates;
            for (const BeamCandidate& c : step.candidates)
                candidates.append(QJsonArray{c.beam, c.token, c.score, beamFateName(c.fate), c.forced, c.group});
            QJsonArray beams;
            for (std::size_t i = 0; i < step.parents.size(); ++i)
                beams.append(QJsonArray{step.parents[i], step.tokens[i], step.scores[i],
                                        i < step.groups.size() ? step.groups[i] : 0});
            steps.append(QJsonObject{{QStringLiteral("candidates"), candidates}, {QStringLiteral("beams"), beams}});
        }
        json.insert(QStringLiteral("beam_steps"), steps);
        QJsonArray hypotheses;
        for (const BeamHypothesis& h : record.beam->hypotheses)
            hypotheses.append(QJsonObject{{QStringLiteral("tokens"), tokenArray(h.tokens)},
                                          {QStringLiteral("text"), QString::fromStdString(h.text)},
                                          {QStringLiteral("sum_log_prob"), h.sumLogProb},
                                          {QStringLiteral("score"), h.score},
                                          {QStringLiteral("eos"), h.finishedByEos},
                                          {QStringLiteral("words_forced"), h.wordsForced}});
        json.insert(QStringLiteral("hypotheses"), hypotheses);
    }
    return json;
}

Result<DecoderRecord> decoderRecordFromJson(const QJsonObject& json) {
    DecoderRecord record;
    record.type = json.value(QLatin1String("type")).toString();
    if (record.type.isEmpty())
        return damaged(QStringLiteral("no type"));
    for (const QJsonValue& s : json.value(QLatin1String("steps")).toArray()) {
        DecoderStepTrace step;
        step.threshold = s.toObject().value(QLatin1String("threshold")).toDouble(NAN);
        for (const QJsonValue& c : s.toObject().value(QLatin1String("candidates")).toArray()) {
            const QJsonArray a = c.toArray();
            if (a.size() != 5)
                return damaged(QStringLiteral("a candidate is not [token, first, second, score, kept]"));
            step.candidates.push_back({a[0].toInt(), a[1].toDouble(), a[2].toDouble(), a[3].toDouble(), a[4].toBool()});
        }
        record.steps.push_back(std::move(step));
    }
    if (json.contains(QLatin1String("beam_steps"))) {
        auto beam = std::make_shared<BeamResult>();
        for (const QJsonValue& s : json.value(QLatin1String("beam_steps")).toArray()) {
            BeamStep step;
            for (const QJsonValue& c : s.toObject().value(QLatin1String("candidates")).toArray()) {
                const QJsonArray a = c.toArray();
                if (a.size() != 6)
                    return damaged(QStringLiteral("a beam candidate is not [beam, token, score, fate, forced, group]"));
                const QString fate = a[3].toString();
                step.candidates.push_back({a[0].toInt(), a[1].toInt(), a[2].toDouble(),
                                           fate == QLatin1String("continued") ? BeamCandidate::Fate::Continued
                                           : fate == QLatin1String("finished") ? BeamCandidate::Fate::Finished
                                                                                : BeamCandidate::Fate::Pruned,
                                           a[4].toBool(), a[5].toInt()});
            }
            for (const QJsonValue& b : s.toObject().value(QLatin1String("beams")).toArray()) {
                const QJsonArray a = b.toArray();
                if (a.size() != 4)
                    return damaged(QStringLiteral("a beam is not [parent, token, score, group]"));
                step.parents.push_back(a[0].toInt());
                step.tokens.push_back(a[1].toInt());
                step.scores.push_back(a[2].toDouble());
                step.groups.push_back(a[3].toInt());
            }
            beam->steps.push_back(std::move(step));
        }
        for (const QJsonValue& v : json.value(QLatin1String("hypotheses")).toArray()) {
            const QJsonObject h = v.toObject();
            BeamHypothesis hypothesis;
            for (const QJsonValue& t : h.value(QLatin1String("tokens")).toArray())
                hypothesis.tokens.push_back(t.toInt());
            hypothesis.text = h.value(QLatin1String("text")).toString().toStdString();
            hypothesis.sumLogProb = h.value(QLatin1String("sum_log_prob")).toDouble();
            hypothesis.score = h.value(QLatin1String("score")).toDouble();
            hypothesis.finishedByEos = h.value(QLatin1String("eos")).toBool();
            hypothesis.wordsForced = h.value(QLatin1String("words_forced")).toBool(true);
            beam->hypotheses.push_back(std::move(hypothesis));
        }
        record.beam = std::move(beam);
    }
    return record;
}

} // namespace swb
