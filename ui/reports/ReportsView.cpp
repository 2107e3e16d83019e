#include "reports/ReportsView.h"

#include <QVBoxLayout>

#include "EmptyStatePage.h"

namespace swb {

ReportsView::ReportsView(Database* database, QWidget* parent)
    : QWidget(parent)
    , m_database(database) {
    setObjectName(QStringLiteral("reports"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new EmptyStatePage(tr("No ratings yet"),
                                         tr("Once outputs are rated, this view summarises each strategy."), this));
}

void ReportsView::refresh() {}

} // namespace swb
