#pragma once

#include <array>
#include <map>
#include <mutex>
#include <vector>

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace swb {

// The server's figures, in Prometheus' text exposition format (version 0.0.4): histograms of request
// duration, time to first token and time per output token (seconds), counters of requests by endpoint and
// status and of prompt and generated tokens, and the gauges the caller reads at scrape time (queue length,
// busy slots). Thread-safe.
class ServeMetrics {
public:
    // endpoints: the paths counted by name; any other request (an unknown path, a malformed one) counts as
    // "other", so that clients cannot grow the label set.
    explicit ServeMetrics(QStringList endpoints)
        : m_endpoints(std::move(endpoints)) {}
    void request(const QString& endpoint, int status);
    void finished(double durationSeconds, double ttftSeconds, double perTokenSeconds, int promptTokens, int generatedTokens);
    // An experiment's events per arm: a request assigned to it, a feedback on one of its completions, and
    // the arm made the default strategy when the test decided for it (--auto-promote).
    enum class ExperimentEvent { Request, Feedback, Promotion };
    void experiment(const QString& experiment, const QString& arm, ExperimentEvent event);
    QByteArray render(int queued, int busy, int slotCount) const;

private:
    struct Histogram {
        std::vector<double> bounds;
        std::vector<unsigned long long> counts; // per bound, cumulative at render
        unsigned long long count = 0;
        double sum = 0.0;
        void observe(double value);
    };
    QStringList m_endpoints;
    mutable std::mutex m_mutex;
    std::map<std::pair<QString, int>, unsigned long long> m_requests;
    Histogram m_duration{{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120}, {}};
    Histogram m_ttft{{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}, {}};
    Histogram m_perToken{{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1}, {}};
    std::map<std::pair<QString, QString>, std::array<unsigned long long, 3>> m_experiments; // by ExperimentEvent
    unsigned long long m_promptTokens = 0;
    unsigned long long m_generatedTokens = 0;
};

} // namespace swb
