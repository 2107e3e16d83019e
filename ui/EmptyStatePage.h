#pragma once

#include <QWidget>

namespace swb {

// A centred title and explanation shown where a view has nothing to show yet.
class EmptyStatePage final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EmptyStatePage)

public:
    EmptyStatePage(const QString& title, const QString& explanation, QWidget* parent = nullptr);
};

} // namespace swb
