#include "EmptyStatePage.h"

#include <QLabel>
#include <QVBoxLayout>

namespace swb {

EmptyStatePage::EmptyStatePage(const QString& title, const QString& explanation, QWidget* parent)
    : QWidget(parent) {
    auto* heading = new QLabel(title, this);
    QFont font = heading->font();
    font.setPointSizeF(font.pointSizeF() * 1.6);
    font.setBold(true);
    heading->setFont(font);
    heading->setAlignment(Qt::AlignCenter);

    auto* body = new QLabel(explanation, this);
    body->setWordWrap(true);
    body->setAlignment(Qt::AlignCenter);
    body->setMinimumWidth(360);
    body->setMaximumWidth(600);
    body->setForegroundRole(QPalette::PlaceholderText);

    auto* layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addWidget(heading, 0, Qt::AlignHCenter);
    layout->addSpacing(12);
    // A word-wrapped label needs a row of its own to get its height for the width it is given.
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(body, 4);
    row->addStretch(1);
    layout->addLayout(row);
    layout->addStretch(2);
}

} // namespace swb
