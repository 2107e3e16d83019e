#include "serving/ServeMetrics.h"

namespace swb {

void ServeMetrics::Histogram::observe(double value) {
    if (counts.size() != bounds.size())
        counts.assign(bounds.size(), 0);
    for (std::size_t i = 0; i < bounds.size(); ++i)
        if (value <= bounds[i]) {
            ++counts[i];
            break;
        }
    ++count;
    sum += value;
}

void ServeMetrics::request(const QString& endpoint, int status) {
    std::lock_guard lock(m_mutex);
    ++m_requests[{m_endpoints.contains(endpoint) ? endpoint : QStringLiteral("other"), status}];
}

void ServeMetrics::finished(double durationSeconds, double ttftSeconds, double perTokenSeconds, int promptTokens,
                            int generatedTokens) {
    std::lock_guard lock(m_mutex);
    m_duration.observe(durationSeconds);
    if (generatedTokens > 0)
        m_ttft.observe(ttftSeconds);
    if (generatedTokens > 1)
        m_perToken.observe(perTokenSeconds);
    m_promptTokens += static_cast<unsigned long long>(promptTokens);
    m_generatedTokens += static_cast<unsigned long long>(generatedTokens);
}

void ServeMetrics::experiment(const QString& experiment, const QString& arm, ExperimentEvent event) {
    std::lock_guard lock(m_mutex);
    ++m_experiments[{experiment, arm}][static_cast<std::size_t>(event)];
}

namespace {

// A label value as the text format writes it: backslash, double quote and line feed escaped.
QByteArray labelValue(const QString& value) {
    QByteArray out;
    for (const char c : value.toUtf8()) {
        if (c == '\\' || c == '"')
            out += '\\';
        out += c == '\n' ? QByteArray("\\n") : QByteArray(1, c);
    }
    return out;
}

void histogram(QByteArray& out, const char* name, const char* help, const std::vector<double>& bounds,
               const std::vector<unsigned long long>& counts, unsigned long long count, double sum) {
    out += QByteArray("# HELP ") + name + ' ' + help + "\n# TYPE " + name + " histogram\n";
    unsigned long long cumulative = 0;
    for (std::size_t i = 0; i < bounds.size(); ++i) {
        cumulative += i < counts.size() ? counts[i] : 0;
        out += QByteArray(name) + "_bucket{le=\"" + QByteArray::number(bounds[i], 'g', 6) + "\"} " +
               QByteArray::number(cumulative) + '\n';
    }
    out += QByteArray(name) + "_bucket{le=\"+Inf\"} " + QByteArray::number(count) + '\n';
    out += QByteArray(name) + "_sum " + QByteArray::number(sum, 'g', 12) + '\n';
    out += QByteArray(name) + "_count " + QByteArray::number(count) + '\n';
}

} // namespace

QByteArray ServeMetrics::render(int queued, int busy, int slotCount) const {
    std::lock_guard lock(m_mutex);
    QByteArray out;
    out += "# HELP swb_requests_total Requests answered, by endpoint and HTTP status.\n# TYPE swb_requests_total counter\n";
    for (const auto& [key, count] : m_requests)
        out += "swb_requests_total{endpoint=\"" + labelValue(key.first) + "\",status=\"" +
               QByteArray::number(key.second) + "\"} " + QByteArray::number(count) + '\n';
    histogram(out, "swb_request_duration_seconds", "Time from a generation request to its last byte.", m_duration.bounds,
              m_duration.counts, m_duration.count, m_duration.sum);
    histogram(out, "swb_time_to_first_token_seconds", "Time from a generation request to its first token.", m_ttft.bounds,
              m_ttft.counts, m_ttft.count, m_ttft.sum);
    histogram(out, "swb_time_per_output_token_seconds", "Mean time between a request's tokens after the first.",
              m_perToken.bounds, m_perToken.counts, m_perToken.count, m_perToken.sum);
    out += "# HELP swb_prompt_tokens_total Prompt tokens read.\n# TYPE swb_prompt_tokens_total counter\nswb_prompt_tokens_total " +
           QByteArray::number(m_promptTokens) + '\n';
    out += "# HELP swb_generated_tokens_total Tokens generated.\n# TYPE swb_generated_tokens_total counter\n"
           "swb_generated_tokens_total " + QByteArray::number(m_generatedTokens) + '\n';
    const char* const experimentCounters[][2] = {
        {"swb_experiment_requests_total", "Requests served in an experiment, by experiment and arm."},
        {"swb_experiment_feedback_total", "Feedback given on an experiment's completions, by experiment and arm."},
        {"swb_experiment_promotions_total",
         "Arms made the default strategy when the experiment decided (--auto-promote)."}};
    for (std::size_t event = 0; event < 3 && !m_experiments.empty(); ++event) {
        out += QByteArray("# HELP ") + experimentCounters[event][0] + ' ' + experimentCounters[event][1] + "\n# TYPE " +
               experimentCounters[event][0] + " counter\n";
        for (const auto& [key, counts] : m_experiments)
            out += QByteArray(experimentCounters[event][0]) + "{experiment=\"" + labelValue(key.first) + "\",arm=\"" +
                   labelValue(key.second) + "\"} " + QByteArray::number(counts[event]) + '\n';
    }
    out += "# HELP swb_queue_length Sequences waiting for a slot.\n# TYPE swb_queue_length gauge\nswb_queue_length " +
           QByteArray::number(queued) + '\n';
    out += "# HELP swb_busy_slots Sequences decoding now.\n# TYPE swb_busy_slots gauge\nswb_busy_slots " +
           QByteArray::number(busy) + '\n';
    out += "# HELP swb_slots Sequences that decode together at most (--parallel).\n# TYPE swb_slots gauge\nswb_slots " +
           QByteArray::number(slotCount) + '\n';
    return out;
}

} // namespace swb
