#pragma once

#include <functional>
#include <memory>

#include <QByteArray>
#include <QHostAddress>

#include "Result.h"

namespace swb {

class Database;

// `swb serve --rating`: the rating page of the store's campaigns, for raters in their browsers. A rater's link
// (/rate/TOKEN) opens their own queue and nothing else; every answer is saved at once, in one transaction
// (the rubric scores of each output and the preference), and the same answer sent again is stored once.
//
//   GET  /rate/TOKEN                the page (plain HTML, CSS and JavaScript; nothing from the network)
//   GET  /api/rate/TOKEN            the rater's campaign: rubric, anchors, queue with answers so far, progress
//   POST /api/rate/TOKEN/answer     {"position", "scores": {LABEL: {DIMENSION: SCORE}}, "preference": LABEL |
//                                    "tie" | "bothbad", "note"} -> {"done", "total"}
//   GET  /health
//
// A token no campaign has: 403. Bad answers: 400 with {"error": {"message"}} naming the field.
class RatingServer {
public:
    RatingServer(std::unique_ptr<Database> database, std::function<void(const QByteArray&)> log = {});
    ~RatingServer();
    Result<quint16> listen(const QHostAddress& address, quint16 port);
    // Accepts no more connections; the requests in flight go on (a drain before exiting).
    void stopListening();
    int requestsInFlight() const;

private:
    class Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace swb
