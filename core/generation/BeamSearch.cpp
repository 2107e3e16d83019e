// Generator::beamSearch: transformers' beam search on our model, step by step, with its trace; with beam
// sampling, diverse (group) beam search and constrained beam search (force_words) as variants of one loop.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include <QJsonArray>

#include "generation/ForcedSteps.h"
#include "generation/Generator.h"
#include "generation/StepReplay.h"
#include "generation/StepScorer.h"
#include "model/Model.h"
#include "sampling/SamplerRegistry.h"

namespace swb {

namespace {

// transformers' BeamHypotheses: the finished hypotheses of one beam group, at most `capacity` of them.
class FinishedHypotheses {
public:
    FinishedHypotheses(const BeamOptions& options, int capacity, int maxGenerated)
        : m_options(options), m_capacity(capacity), m_maxGenerated(maxGenerated) {}

    void add(std::vector<TokenId> tokens, double sumLogProb, int generatedLength, bool byEos) {
        const double score = sumLogProb / std::pow(double(generatedLength), m_options.lengthPenalty);
        if (int(m_items.size()) < m_capacity || score > m_worst) {
            m_items.push_back({std::move(tokens), {}, sumLogProb, score, byEos});
            if (int(m_items.size()) > m_capacity) {
                // drop the worst (the first of the lowest, as a stable sort finds it)
                std::size_t worst = 0;
                for (std::size_t i = 1; i < m_items.size(); ++i)
                    if (m_items[i].score < m_items[worst].score)
                        worst = i;
                m_items.erase(m_items.begin() + std::ptrdiff_t(worst));
                m_worst = std::numeric_limits<double>::infinity();
                for (const BeamHypothesis& h : m_items)
                    m_worst = std::min(m_worst, h.score);
            } else {
                m_worst = std::min(score, m_worst);
            }
        }
    }

    // Whether no running beam can do better (generatedLength: the length the best score is at).
    bool isDone(double bestSumLogProb, int generatedLength) const {
        if (int(m_items.size()) < m_capacity)
            return false;
        switch (m_options.earlyStopping) {
        case BeamOptions::EarlyStopping::Immediate: return true;
        case BeamOptions::EarlyStopping::Heuristic:
            return m_worst >= bestSumLogProb / std::pow(double(generatedLength), m_options.lengthPenalty);
        case BeamOptions::EarlyStopping::Never: {
            const int length = m_options.lengthPenalty > 0.0 ? m_maxGenerated : generatedLength;
            return m_worst >= bestSumLogProb / std::pow(double(length), m_options.lengthPenalty);
        }
        }
        return false;
    }

    std::vector<BeamHypothesis>& items() { return m_items; }

private:
    BeamOptions m_options;
    int m_capacity;
    int m_maxGenerated;
    std::vector<BeamHypothesis> m_items;
    double m_worst = 1e9;
};

// One forced word and how far a sequence has got through it: transformers' PhrasalConstraint (one
// spelling) or DisjunctiveConstraint (several, walked as a trie). A token that does not continue a
// spelling resets it.
class WordProgress {
public:
    explicit WordProgress(const std::vector<std::vector<TokenId>>& spellings)
        : m_spellings(&spellings) {
        for (const std::vector<TokenId>& s : spellings)
            m_length = std::max(m_length, static_cast<int>(s.size()));
    }
    int remaining() const { return m_length - static_cast<int>(m_matched.size()); }
    bool complete() const { return m_complete; }
    int length() const { return m_length; }

    std::vector<TokenId> next() const {
        std::vector<TokenId> out;
        if (m_complete)
            return out;
        for (const std::vector<TokenId>& s : *m_spellings)
            if (s.size() > m_matched.size() && std::equal(m_matched.begin(), m_matched.end(), s.begin())) {
                const TokenId t = s[m_matched.size()];
                if (std::find(out.begin(), out.end(), t) == out.end())
                    out.push_back(t);
            }
        return out;
    }
    bool advances(TokenId token) const {
        const std::vector<TokenId> n = next();
        return std::find(n.begin(), n.end(), token) != n.end();
    }
    // Whether the token stepped; one that does not resets the word.
    bool update(TokenId token) {
        if (!advances(token)) {
            reset();
            return false;
        }
        m_matched.push_back(token);
        m_complete = std::find(m_spellings->begin(), m_spellings->end(), m_matched) != m_spellings->end();
        return true;
    }
    void reset() {
        m_matched.clear();
        m_complete = false;
    }

private:
    const std::vector<std::vector<TokenId>>* m_spellings;
    std::vector<TokenId> m_matched;
    int m_length = 0;
    bool m_complete = false;
};

// transformers' ConstraintListState: the words done, the one in progress, the ones pending, and the bank
// (progress) a sequence is in.
class WordsProgress {
public:
    WordsProgress(const BeamOptions& options, std::span<const TokenId> tokens) {
        for (const auto& word : options.forcedWords) {
            m_pending.emplace_back(word);
            m_longest = std::max(m_longest, m_pending.back().length());
        }
        m_completed = m_pending.empty();
        for (TokenId t : tokens)
            add(t);
    }
    bool completed() const { return m_completed; }
    int bank() const {
        return m_done * m_longest + (m_inProgress ? m_longest - m_inProgress->remaining() : 0);
    }
    std::vector<TokenId> next() const {
        if (m_inProgress)
            return m_inProgress->next();
        std::vector<TokenId> out;
        for (const WordProgress& word : m_pending)
            for (TokenId t : word.next())
                out.push_back(t);
        return out;
    }
    void add(TokenId token) {
        if (m_completed)
            return;
        if (m_inProgress) {
            if (!m_inProgress->update(token)) {
                m_pending.push_back(*m_inProgress); // reset by update: pending again, at the end
                m_inProgress.reset();
            } else if (m_inProgress->complete()) {
                ++m_done;
                m_inProgress.reset();
                m_completed = m_pending.empty();
            }
            return;
        }
        for (std::size_t i = 0; i < m_pending.size(); ++i) {
            if (!m_pending[i].advances(token))
                continue;
            m_pending[i].update(token);
            if (m_pending[i].complete())
                ++m_done;
            else
                m_inProgress = m_pending[i];
            m_pending.erase(m_pending.begin() + std::ptrdiff_t(i));
            m_completed = m_pending.empty() && !m_inProgress;
            break; // one token steps one word at most
        }
    }

private:
    std::vector<WordProgress> m_pending;
    std::optional<WordProgress> m_inProgress;
    int m_done = 0;
    int m_longest = 0;
    bool m_completed = false;
};

struct Beam {
    std::shared_ptr<Model::State> state; // shared by beams with the same prefix until one moves on
    std::vector<TokenId> tokens;         // generated so far
    double score = 0.0;
    int group = 0;
    std::vector<float> logits;           // next-token logits after `tokens`
};

struct Scored {
    double score;
    int beam;
    TokenId token;
};

bool ranksBefore(const Scored& a, const Scored& c) {
    if (a.score != c.score)
        return a.score > c.score;
    return a.beam != c.beam ? a.beam < c.beam : a.token < c.token;
}

// Draws `count` candidates without replacement, each with probability proportional to exp(score) among those
// left (torch.multinomial on the softmax of the scores), and returns them by descending score.
std::vector<Scored> drawWithoutReplacement(const std::vector<Scored>& scored, std::size_t count, Pcg64& rng) {
    double top = -std::numeric_limits<double>::infinity();
    for (const Scored& s : scored)
        top = std::max(top, s.score);
    std::vector<double> weights(scored.size());
    double total = 0.0;
    for (std::size_t i = 0; i < scored.size(); ++i) {
        weights[i] = std::exp(scored[i].score - top);
        total += weights[i];
    }
    std::vector<Scored> drawn;
    while (drawn.size() < count && total > 0.0) {
        const double target = rng.uniform() * total;
        double sum = 0.0;
        std::size_t pick = scored.size();
        for (std::size_t i = 0; i < scored.size(); ++i) {
            if (weights[i] <= 0.0)
                continue;
            pick = i;
            sum += weights[i];
            if (sum > target)
                break;
        }
        if (pick == scored.size())
            break;
        drawn.push_back(scored[pick]);
        weights[pick] = 0.0;
        total = 0.0; // re-summed: subtracting would drift as weights are taken out
        for (double w : weights)
            total += w;
    }
    std::stable_sort(drawn.begin(), drawn.end(), ranksBefore);
    return drawn;
}

// One beam search as it runs: its settings, the running beams and finished hypotheses of every group, and the
// scratch its steps reuse.
struct BeamSearchState {
    const BeamOptions& options;
    const std::vector<TokenId>& stopTokens;
    const std::vector<TokenId>& promptIds;
    SamplerChain& chain;
    int groups = 1;
    int groupSize = 1;
    bool constrained = false;
    std::vector<Beam> beams;
    std::vector<FinishedHypotheses> finished;
    std::vector<bool> groupDone;
    std::size_t keep = 0;
    std::size_t vocab = 0;
    std::vector<Scored> scored;
    std::vector<float> logProbs;
    std::vector<TokenId> history;
    std::vector<int> chosenThisStep; // tokens earlier groups chose at this step (diversity)
    Candidates candidates;

    // The first beams, every one from the prompt (first: the logits after it), and the groups' empty hypotheses.
    BeamSearchState(const BeamOptions& options, const std::vector<TokenId>& stopTokens,
                    const std::vector<TokenId>& promptIds, SamplerChain& chain,
                    const std::shared_ptr<Model::State>& promptState, const std::vector<float>& first, int maxGenerated)
        : options(options)
        , stopTokens(stopTokens)
        , promptIds(promptIds)
        , chain(chain) {
        const int k = options.beams;
        groups = std::max(1, options.groups);
        groupSize = k / groups;
        constrained = !options.forcedWords.empty();
        // transformers starts every beam from the prompt, all but the first of each group at -1e9 so that the
        // first step draws from one beam per group only.
        beams = std::vector<Beam>(static_cast<std::size_t>(k));
        for (int b = 0; b < k; ++b) {
            beams[std::size_t(b)].state = promptState;
            beams[std::size_t(b)].score = b % groupSize == 0 ? 0.0 : -1e9;
            beams[std::size_t(b)].group = b / groupSize;
            beams[std::size_t(b)].logits = first;
        }

        finished = std::vector<FinishedHypotheses>(static_cast<std::size_t>(groups),
                                                   FinishedHypotheses(options, groupSize, maxGenerated));
        groupDone = std::vector<bool>(static_cast<std::size_t>(groups), false);
        keep = static_cast<std::size_t>(constrained ? 2 : std::max<std::size_t>(2, 1 + stopTokens.size())) *
               std::size_t(groupSize);
        vocab = first.size();
        chosenThisStep.assign(vocab, 0);
    }

    bool isEos(TokenId t) const { return std::find(stopTokens.begin(), stopTokens.end(), t) != stopTokens.end(); }
};

// The beams of one group this step, each with its row of processed log-probabilities.
struct GroupRows {
    std::vector<int> members;
    std::vector<std::vector<float>> rows;
};

// Every beam of group g: processed log-probabilities (a full row each), plus its score; its candidates go to
// search.scored.
Status scoreGroup(BeamSearchState& search, int g, GroupRows& group) {
    search.scored.clear();
    for (int b = 0; b < int(search.beams.size()); ++b) {
        const Beam& beam = search.beams[std::size_t(b)];
        if (beam.group != g)
            continue;
        const double partition = logPartition(beam.logits);
        if (!std::isfinite(partition))
            return Error::badInput(QStringLiteral("the model's logits hold NaN or no finite value"));
        search.logProbs.resize(search.vocab);
        for (std::size_t v = 0; v < search.vocab; ++v)
            search.logProbs[v] = static_cast<float>(double(beam.logits[v]) - partition -
                                                    search.options.diversityPenalty * search.chosenThisStep[v]);
        search.history = search.promptIds;
        search.history.insert(search.history.end(), beam.tokens.begin(), beam.tokens.end());
        search.candidates.assign(search.logProbs);
        search.chain.process(search.candidates, search.history);
        std::vector<float> row(search.vocab, -std::numeric_limits<float>::infinity());
        const auto ids = search.candidates.ids();
        const auto values = search.candidates.logits();
        for (std::size_t i = 0; i < ids.size(); ++i)
            if (values[i] > -std::numeric_limits<float>::infinity()) {
                row[std::size_t(ids[i])] = values[i];
                search.scored.push_back({beam.score + double(values[i]), b, ids[i]});
            }
        group.members.push_back(b);
        group.rows.push_back(std::move(row));
    }
    return {};
}

// The group's candidates worth considering, at most search.keep, best first: the top scores, or with do_sample
// a draw by their probabilities.
std::vector<Scored> rankCandidates(BeamSearchState& search) {
    std::vector<Scored> ranked;
    if (search.options.doSample) {
        ranked = drawWithoutReplacement(search.scored, search.keep, search.chain.rng());
    } else {
        const std::size_t considered = std::min(search.keep, search.scored.size());
        std::partial_sort(search.scored.begin(), search.scored.begin() + std::ptrdiff_t(considered),
                          search.scored.end(), ranksBefore);
        ranked.assign(search.scored.begin(), search.scored.begin() + std::ptrdiff_t(considered));
    }
    return ranked;
}

// transformers' BeamSearchScorer.process for group g: an end token among the first groupSize finishes a
// hypothesis, other candidates continue until groupSize do; every ranked candidate is traced with its fate.
std::vector<Scored> processCandidates(BeamSearchState& search, int g, const std::vector<Scored>& ranked,
                                      int generatedLength, BeamStep& trace) {
    std::vector<Scored> kept;
    for (std::size_t rank = 0; rank < ranked.size(); ++rank) {
        const Scored& c = ranked[rank];
        BeamCandidate candidate{c.beam, c.token, c.score, BeamCandidate::Fate::Pruned, false, g};
        if (int(kept.size()) < search.groupSize) {
            const Beam& parent = search.beams[std::size_t(c.beam)];
            if (search.isEos(c.token)) {
                if (int(rank) < search.groupSize &&
                    (!search.constrained || WordsProgress(search.options, parent.tokens).completed())) {
                    std::vector<TokenId> tokens = parent.tokens;
                    tokens.push_back(c.token);
                    search.finished[std::size_t(g)].add(std::move(tokens), c.score, generatedLength, true);
                    candidate.fate = BeamCandidate::Fate::Finished;
                }
            } else {
                kept.push_back(c);
                candidate.fate = BeamCandidate::Fate::Continued;
            }
        }
        trace.candidates.push_back(candidate);
    }
    return kept;
}

// A candidate of the constrained step, with the bank (progress through the forced words) it reaches.
struct WordOption {
    Scored scored;
    int bank;
    bool forced;
};

// The kept candidates, then the next token of every word each beam of the group has not finished (a sequence
// offered once), each with its bank.
std::vector<WordOption> wordOptions(const BeamSearchState& search, const GroupRows& group,
                                    const std::vector<Scored>& kept) {
    std::vector<WordOption> options2;
    std::vector<std::vector<TokenId>> seqs;
    const auto sequence = [&](const Scored& s) {
        std::vector<TokenId> seq = search.beams[std::size_t(s.beam)].tokens;
        seq.push_back(s.token);
        return seq;
    };
    for (const Scored& s : kept) {
        seqs.push_back(sequence(s));
        options2.push_back({s, WordsProgress(search.options, seqs.back()).bank(), false});
    }
    for (std::size_t m = 0; m < group.members.size(); ++m) {
        const Beam& beam = search.beams[std::size_t(group.members[m])];
        const WordsProgress progress(search.options, beam.tokens);
        if (progress.completed())
            continue;
        for (TokenId t : progress.next()) {
            const Scored s{beam.score + double(group.rows[m][std::size_t(t)]), group.members[m], t};
            std::vector<TokenId> seq = sequence(s);
            if (std::find(seqs.begin(), seqs.end(), seq) != seqs.end())
                continue;
            WordsProgress advanced = progress;
            advanced.add(t);
            seqs.push_back(std::move(seq));
            options2.push_back({s, advanced.bank(), true});
        }
    }
    return options2;
}

// At most `count` options taken round robin from the banks of progress, the furthest bank and best score first.
std::vector<Scored> roundRobinByBank(const std::vector<WordOption>& options2, std::size_t count) {
    std::vector<std::size_t> order(options2.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return options2[a].bank * 100.0 + options2[a].scored.score >
               options2[b].bank * 100.0 + options2[b].scored.score;
    });
    std::vector<int> increments;
    int counter = -1;
    int bank = options2[order.front()].bank;
    for (std::size_t i : order) {
        counter = options2[i].bank == bank ? counter + 1 : 0;
        bank = options2[i].bank;
        increments.push_back(counter);
    }
    std::vector<std::size_t> byIncrement(order.size());
    for (std::size_t i = 0; i < byIncrement.size(); ++i)
        byIncrement[i] = i;
    std::stable_sort(byIncrement.begin(), byIncrement.end(),
                     [&](std::size_t a, std::size_t b) { return increments[a] < increments[b]; });
    std::vector<Scored> chosen;
    for (std::size_t i = 0; i < byIncrement.size() && chosen.size() < count; ++i)
        chosen.push_back(options2[order[byIncrement[i]]].scored);
    return chosen;
}

// transformers' step_sentence_constraint: every beam also offers the next token of the words it has not finished;
// the kept beams are then taken round robin from the banks of progress. The group's candidates in the trace (from
// firstCandidate on) are retraced, and the offered ones traced after them.
void forceWords(const BeamSearchState& search, int g, const GroupRows& group, std::size_t firstCandidate,
                std::vector<Scored>& kept, BeamStep& trace) {
    const std::vector<WordOption> options2 = wordOptions(search, group, kept);
    if (options2.size() > kept.size()) {
        std::vector<Scored> chosen = roundRobinByBank(options2, kept.size());
        const auto same = [](const Scored& a, const Scored& b) { return a.beam == b.beam && a.token == b.token; };
        for (std::size_t i = firstCandidate; i < trace.candidates.size(); ++i) {
            BeamCandidate& c = trace.candidates[i];
            if (c.fate == BeamCandidate::Fate::Continued &&
                std::none_of(chosen.begin(), chosen.end(),
                             [&](const Scored& s) { return s.beam == c.beam && s.token == c.token; }))
                c.fate = BeamCandidate::Fate::Pruned;
        }
        for (std::size_t i = kept.size(); i < options2.size(); ++i) {
            const Scored& s = options2[i].scored;
            const bool taken = std::any_of(chosen.begin(), chosen.end(), [&](const Scored& c) { return same(c, s); });
            trace.candidates.push_back({s.beam, s.token, s.score,
                                        taken ? BeamCandidate::Fate::Continued : BeamCandidate::Fate::Pruned, true, g});
        }
        kept = std::move(chosen);
    }
}

// The kept candidates as group g's beams of the next step, traced.
void continueBeams(BeamSearchState& search, int g, const std::vector<Scored>& kept, BeamStep& trace,
                   std::vector<Beam>& nextBeams) {
    for (const Scored& c : kept) {
        Beam beam;
        beam.state = search.beams[std::size_t(c.beam)].state;
        beam.tokens = search.beams[std::size_t(c.beam)].tokens;
        beam.tokens.push_back(c.token);
        beam.score = c.score;
        beam.group = g;
        nextBeams.push_back(std::move(beam));
        trace.parents.push_back(c.beam);
        trace.tokens.push_back(c.token);
        trace.scores.push_back(c.score);
        trace.groups.push_back(g);
        ++search.chosenThisStep[std::size_t(c.token)];
    }
}

// One step of group g: its candidates scored, ranked, kept (and forced) and traced; its beams of the next step
// added to nextBeams; the group marked done when no running beam can do better.
Status stepGroup(BeamSearchState& search, int g, int generatedLength, BeamStep& trace, std::vector<Beam>& nextBeams) {
    GroupRows group;
    if (Status scored = scoreGroup(search, g, group); !scored)
        return scored;
    if (group.members.empty())
        return {};
    const std::vector<Scored> ranked = rankCandidates(search);

    const std::size_t firstCandidate = trace.candidates.size();
    std::vector<Scored> kept = processCandidates(search, g, ranked, generatedLength, trace);
    if (search.constrained && !kept.empty())
        forceWords(search, g, group, firstCandidate, kept, trace);
    continueBeams(search, g, kept, trace, nextBeams);
    // What the running beams could still reach: transformers' beam search (and beam sampling) takes the
    // best beam that runs on (_check_early_stop_heuristic's running_beam_scores); its diverse and
    // constrained scorers take the best candidate, one that ended included (is_done(next_scores.max())).
    if (!ranked.empty()) {
        const double best =
            search.groups > 1 || search.constrained || kept.empty() ? ranked.front().score : kept.front().score;
        if (search.finished[std::size_t(g)].isDone(best, generatedLength))
            search.groupDone[std::size_t(g)] = true;
    }
    return {};
}

// One batched forward pass for every beam; a state shared by several beams is copied first.
Status forwardBeams(Model& model, std::vector<Beam>& beams, std::size_t vocab) {
    std::vector<Model::State*> states;
    std::vector<TokenId> tokens;
    for (std::size_t i = 0; i < beams.size(); ++i) {
        if (beams[i].state.use_count() > 1)
            beams[i].state = std::shared_ptr<Model::State>(model.cloneState(*beams[i].state));
        if (!beams[i].state)
            return Error::internal(QStringLiteral("out of memory for another beam's cache"));
        states.push_back(beams[i].state.get());
        tokens.push_back(beams[i].tokens.back());
    }
    Result<std::vector<float>> logits = model.forwardBatch(states, tokens);
    if (!logits)
        return logits.error();
    for (std::size_t i = 0; i < beams.size(); ++i)
        beams[i].logits.assign(logits->begin() + std::ptrdiff_t(i * vocab),
                               logits->begin() + std::ptrdiff_t((i + 1) * vocab));
    return {};
}

// The search's best `return` hypotheses into result.hypotheses, the running beams included.
void collectHypotheses(BeamSearchState& search, BeamResult& result) {
    // transformers' finalize: the running beams of groups not done join their group's hypotheses. With
    // force_words only those with every word do; when fewer than `return` hypotheses have them, the best of the
    // others follow them (transformers means the same, but lets them compete on score with the complete ones).
    std::vector<BeamHypothesis> incomplete;
    for (int g = 0; g < search.groups; ++g) {
        if (search.groupDone[std::size_t(g)])
            continue;
        for (const Beam& beam : search.beams) {
            if (beam.group != g)
                continue;
            const int length = static_cast<int>(beam.tokens.size());
            if (search.constrained && !WordsProgress(search.options, beam.tokens).completed())
                incomplete.push_back({beam.tokens,
                                      {},
                                      beam.score,
                                      beam.score / std::pow(double(length), search.options.lengthPenalty),
                                      false});
            else
                search.finished[std::size_t(g)].add(beam.tokens, beam.score, length, false);
        }
    }
    // The best `return` over all groups (equal scores: the one added last first, as transformers pops them).
    std::vector<BeamHypothesis> all;
    for (FinishedHypotheses& group : search.finished)
        for (BeamHypothesis& h : group.items())
            all.push_back(std::move(h));
    const auto byScore = [](const BeamHypothesis& a, const BeamHypothesis& b) { return a.score < b.score; };
    std::stable_sort(all.begin(), all.end(), byScore);
    std::stable_sort(incomplete.begin(), incomplete.end(), byScore);
    for (int i = 0; i < search.options.returned && (!all.empty() || !incomplete.empty()); ++i) {
        std::vector<BeamHypothesis>& from = all.empty() ? incomplete : all;
        result.hypotheses.push_back(std::move(from.back()));
        from.pop_back();
    }
}

} // namespace

bool isBeamDecoder(const DecoderSpec& decoder) {
    return decoderFamily(decoder) == DecoderFamily::Beam;
}

Result<BeamOptions> beamOptions(const DecoderSpec& decoder, const Tokenizer& tokenizer) {
    if (!isBeamDecoder(decoder))
        return Error::internal(QStringLiteral("beam search needs a strategy whose decoder is beam or group_beam"));
    BeamOptions options;
    const QJsonObject& p = decoder.params;
    options.beams = p.value(QLatin1String("beams")).toInt(4);
    options.lengthPenalty = p.value(QLatin1String("length_penalty")).toDouble(1.0);
    options.returned = p.value(QLatin1String("return")).toInt(1);
    const QJsonValue early = p.value(QLatin1String("early_stopping"));
    options.earlyStopping = early.isBool() ? (early.toBool() ? BeamOptions::EarlyStopping::Immediate
                                                             : BeamOptions::EarlyStopping::Heuristic)
                                           : BeamOptions::EarlyStopping::Never;
    options.groups = p.value(QLatin1String("groups")).toInt(1);
    options.diversityPenalty = p.value(QLatin1String("diversity_penalty")).toDouble(0.0);
    options.doSample = p.value(QLatin1String("do_sample")).toBool(false);
    for (const QJsonValue& word : p.value(QLatin1String("force_words")).toArray()) {
        QStringList spellings;
        if (word.isArray())
            for (const QJsonValue& s : word.toArray())
                spellings.append(s.toString());
        else
            spellings.append(word.toString());
        std::vector<std::vector<TokenId>> tokenized;
        for (const QString& s : spellings) {
            tokenized.push_back(tokenizer.encode(s.toStdString(), false, false));
            if (tokenized.back().empty())
                return Error::badInput(QStringLiteral("decoder 'beam': force word '%1' is no token once tokenized").arg(s));
        }
        for (std::size_t a = 0; a < tokenized.size(); ++a)
            for (std::size_t b = 0; b < tokenized.size(); ++b)
                if (a != b && tokenized[a].size() <= tokenized[b].size() &&
                    std::equal(tokenized[a].begin(), tokenized[a].end(), tokenized[b].begin()))
                    return Error::badInput(
                        QStringLiteral("decoder 'beam': force word alternatives '%1' and '%2' start with the same tokens; "
                                       "no alternative may begin another")
                            .arg(spellings[qsizetype(a)], spellings[qsizetype(b)]));
        options.forcedWords.push_back(std::move(tokenized));
    }
    return options;
}

Status Generator::checkStrategy(const Strategy& strategy) const {
    if (Result<SamplerChain> chain = SamplerChain::build(strategy, &m_tokenizer, strategy.seed.value_or(0)); !chain)
        return chain.error();
    if (isBeamDecoder(strategy.decoder)) {
        Result<BeamOptions> options = beamOptions(strategy.decoder, m_tokenizer);
        if (!options)
            return options.error();
        return checkDecoderChain(strategy, options->doSample, QStringLiteral("beam search"));
    }
    if (decoderFamily(strategy.decoder) == DecoderFamily::Search)
        return checkDecoderChain(strategy, false, QStringLiteral("contrastive search"));
    return {};
}

Result<BeamResult> Generator::beamSearch(const GenerationRequest& request,
                                         const std::function<bool(const BeamStep&)>& onStep,
                                         const std::atomic<bool>* cancel) {
    const Strategy& strategy = request.strategy;
    Result<BeamOptions> parsed = beamOptions(strategy.decoder, m_tokenizer);
    if (!parsed)
        return parsed.error();
    const BeamOptions options = std::move(parsed).value();
    if (Status chainFits = checkDecoderChain(strategy, options.doSample, QStringLiteral("beam search")); !chainFits)
        return chainFits.error();

    BeamResult result;
    Result<std::vector<TokenId>> prompt = promptTokens(request);
    if (!prompt)
        return prompt.error();
    result.promptIds = std::move(prompt).value();
    const int context = m_model.info().contextLength;
    const int promptLength = static_cast<int>(result.promptIds.size());
    const int maxGenerated = context > 0 ? std::min(request.maxTokens, context - promptLength) : request.maxTokens;
    if (maxGenerated < 1)
        return result;

    Result<SamplerChain> chain = SamplerChain::build(strategy, &m_tokenizer, strategy.seed.value_or(request.seed));
    if (!chain)
        return chain.error();

    std::shared_ptr<Model::State> promptState = m_model.newState();
    Result<std::vector<float>> first = m_model.forward(*promptState, result.promptIds);
    if (!first)
        return first.error();
    BeamSearchState search(options, m_stopTokens, result.promptIds, chain.value(), promptState, first.value(),
                           maxGenerated);

    bool done = false;
    for (int step = 0; step < maxGenerated; ++step) {
        if (cancel && cancel->load()) {
            result.cancelled = true;
            break;
        }
        BeamStep trace;
        std::vector<Beam> nextBeams;
        std::fill(search.chosenThisStep.begin(), search.chosenThisStep.end(), 0);
        const int generatedLength = step + 1;
        for (int g = 0; g < search.groups; ++g) {
            if (search.groupDone[std::size_t(g)])
                continue;
            if (Status stepped = stepGroup(search, g, generatedLength, trace, nextBeams); !stepped)
                return stepped.error();
        }
        done = std::all_of(search.groupDone.begin(), search.groupDone.end(), [](bool d) { return d; });
        // Beams of a group that is done stop here (transformers pads them to the end).
        std::erase_if(nextBeams, [&](const Beam& b) { return search.groupDone[std::size_t(b.group)]; });
        search.beams = std::move(nextBeams);
        result.steps.push_back(std::move(trace));
        if (onStep && !onStep(result.steps.back())) {
            result.cancelled = true;
            break;
        }
        if (done || search.beams.empty() || step + 1 == maxGenerated)
            break;

        if (Status forwarded = forwardBeams(m_model, search.beams, search.vocab); !forwarded)
            return forwarded.error();
    }
    collectHypotheses(search, result);
    for (BeamHypothesis& h : result.hypotheses) {
        h.wordsForced = WordsProgress(options, h.tokens).completed();
        StreamingDecoder decoder(m_tokenizer);
        for (TokenId id : result.promptIds)
            decoder.push(id);
        for (TokenId id : h.tokens)
            if (!search.isEos(id))
                h.text += decoder.push(id);
        h.text += decoder.flush();
    }
    return result;
}

Result<GenerationResult> Generator::generateWithBeams(const GenerationRequest& request,
                                                     const std::function<bool(const GeneratedStep&)>& onStep,
                                                     const std::atomic<bool>* cancel) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    std::optional<Clock::time_point> firstStep;
    Result<BeamResult> search = beamSearch(
        request,
        [&](const BeamStep& step) {
            if (!firstStep)
                firstStep = Clock::now();
            if (m_beamObserver)
                m_beamObserver(step);
            return true;
        },
        cancel);
    if (!search)
        return search.error();
    GenerationResult result;
    result.promptIds = search->promptIds;
    result.seed = request.strategy.seed.value_or(request.seed);
    result.finish = search->cancelled ? FinishReason::Cancelled : FinishReason::MaxTokens;
    if (!search->hypotheses.empty()) {
        // The best hypothesis as the run's steps, each traced with the distribution its beam's processors left.
        const std::vector<TokenId>& tokens = search->hypotheses.front().tokens;
        Result<RunLogits> logits = RunLogits::compute(m_model, result.promptIds, tokens, static_cast<int>(tokens.size()));
        if (!logits)
            return logits.error();
        Result<ForcedTracer> tracer = ForcedTracer::create(request.strategy, m_tokenizer, request.topN);
        if (!tracer)
            return tracer.error();
        StepText text(m_tokenizer, result.promptIds, request.strategy.stop, m_stopTokens);
        std::vector<TokenId> history = result.promptIds;
        std::vector<float> row;
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            const std::span<const float> raw = logits->step(static_cast<int>(i));
            const double partition = logPartition(raw);
            row.resize(raw.size());
            for (std::size_t v = 0; v < raw.size(); ++v)
                row[v] = static_cast<float>(double(raw[v]) - partition);
            Result<StepTrace> trace = tracer->trace(row, history, tokens[i], request.traceLevel);
            if (!trace)
                return trace.error();
            GeneratedStep step;
            step.token = tokens[i];
            step.trace = std::move(trace).value();
            history.push_back(tokens[i]);
            if (!text.add(std::move(step), result, onStep))
                break;
        }
        text.finish(result);
        const int context = m_model.info().contextLength;
        if (result.finish == FinishReason::MaxTokens && context > 0 &&
            static_cast<int>(history.size()) >= context && static_cast<int>(tokens.size()) < request.maxTokens)
            result.finish = FinishReason::ContextLimit;
    }
    if (firstStep)
        setTimings(result, start, *firstStep, Clock::now(), search->steps.size());
    result.beam = std::make_shared<const BeamResult>(std::move(search).value());
    return result;
}

} // namespace swb
