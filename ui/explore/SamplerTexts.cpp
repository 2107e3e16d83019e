#include "explore/SamplerTexts.h"

#include <QCoreApplication>

namespace swb {

namespace {

// Every sampler's summary and parameter text (core/sampling/samplers), for lupdate: the descriptors are core's
// and stay in English there; the interface shows them translated. tst_ui_explore checks this list covers every
// descriptor and that each text has a translation in every shipped language.
const char* const kTexts[] = {
    QT_TRANSLATE_NOOP("swb::SamplerTexts",
                      "Draws tokens whose probability stays near a target on average: reshapes the distribution around "
                      "a target that adapts to the probabilities drawn so far."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Probability the drawn tokens should have on average."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Weight of the history in the running average."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Never produces the listed token ids."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Token ids to ban."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Never produces the listed words (as the model's tokenizer spells them)."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Words or phrases to ban."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts",
                      "Allows only tokens that continue a string of a grammar (GBNF, a JSON schema, or any JSON)."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "A grammar in llama.cpp's GBNF; its start rule is root."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts",
                      "A JSON schema the output must follow (converted as llama.cpp converts it)."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Any JSON value (also what a grammar stage with none of the three allows)."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Draws the token at random from the final distribution (seeded)."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Always picks the most likely surviving token."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts",
                      "Penalises tokens that would extend a sequence already repeated in the text."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Penalty scale; 0 turns DRY off."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Growth of the penalty per extra matched token."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Repeats this long go unpenalised."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Tokens of history searched; -1 all, 0 off."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Tokens (ids, or text they contain) that break a repeated sequence."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts",
                      "Dynamic temperature: hotter when the model is unsure (high entropy), colder when sure."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Centre temperature."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Temperatures span value ± range."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Exponent applied to the normalised entropy."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Removes tokens whose probability is below epsilon."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Probability floor."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts",
                      "Entropy-dependent floor: removes tokens below min(epsilon, sqrt(epsilon) exp(-H))."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "epsilon of the eta formula."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Adds a fixed amount to the logits of chosen tokens."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Object of \"token id\": bias."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Keeps tokens at least p times as likely as the most likely token."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Fraction of the top probability."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts",
                      "Mirostat 1.0: adapts a top-k cut step by step to hold the surprise near tau."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Target surprise (bits)."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Learning rate of mu."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Tokens used to estimate the Zipf exponent."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Mirostat 2.0: keeps tokens whose surprise is below an adaptive mu."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Bans any token that would repeat an n-gram already in the text."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "n-gram size."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Frequency and presence penalties: subtracts count × frequency + presence "
                                           "from the logit of every token already used."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Penalty per occurrence."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Penalty for occurring at all."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Tokens of history counted; -1 all, 0 off."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Makes every token already in the text less likely: positive logits divided "
                                           "by the penalty, negative ones multiplied."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Above 1 discourages repetition."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Divides the logits by T: below 1 sharpens the distribution, above 1 "
                                           "flattens it; 0 keeps only the most likely token."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Temperature T."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Top-H: keeps the most likely tokens while their entropy terms add up to at "
                                           "most h times the entropy of the top 100."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Share of the top 100's entropy."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Keeps the k most likely tokens (and any tied with the k-th)."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Number of tokens to keep."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts",
                      "Keeps tokens whose logit is within n standard deviations of the largest logit."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Number of standard deviations."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts",
                      "Nucleus sampling: keeps the smallest set of most likely tokens whose mass reaches p."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Cumulative probability to keep."),
    QT_TRANSLATE_NOOP(
        "swb::SamplerTexts",
        "Locally typical sampling: keeps tokens whose surprisal is closest to the entropy, up to mass p."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Mass of typical tokens to keep."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts",
                      "Removes tokens less likely than a times the square of the top probability."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Multiplier of the squared top probability."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts",
                      "Tail-free sampling: cuts where the sorted probabilities' curvature has added up to z."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Share of the total curvature kept; 1 is off."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Quadratic sampling: bends the logits below the top one down by factor "
                                           "times their squared (and, with curve, cubed) distance from it."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Smoothing factor; 0 is off."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Smoothing curve; 1 is the plain quadratic."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts",
                      "Exclude top choices: sometimes removes all likely tokens but the least likely of them."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Probability a token needs to count as a top choice."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Chance that XTC acts at a step."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Never keep fewer than this many tokens."),
    // Decoders' trace columns and notes (core/sampling/DecoderRegistry.cpp).
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Token"),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "p (confidence)"),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Degeneration penalty"),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Score"),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Chosen"),
    QT_TRANSLATE_NOOP(
        "swb::SamplerTexts",
        "Contrastive search: score = (1 − α) · p − α · max cosine similarity to the context; the best is taken."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Expert p"),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Amateur p"),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Contrastive score"),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Plausible"),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Contrastive decoding: candidates with expert p ≥ %1 (α · max p) are "
                                           "plausible and scored; the chain then acts on the scores."),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "p with the prompt"),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "p without"),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Guided logit"),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Kept"),
    QT_TRANSLATE_NOOP("swb::SamplerTexts", "Guidance: guided logit = g · (log p − log p without) + log p without."),
};

} // namespace

QString samplerText(const QString& english) {
    return QCoreApplication::translate("swb::SamplerTexts", english.toUtf8().constData());
}

QStringList samplerTextSources() {
    QStringList texts;
    for (const char* text : kTexts)
        texts << QString::fromUtf8(text);
    return texts;
}

} // namespace swb
