#include "runs/RunsView.h"

#include <map>

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

#include "runs/RunSetupText.h"
#include "storage/RunRepository.h"

namespace swb {

namespace {
enum Column { Id, Created, Strategy, Model, Prompt, Output, Tokens, Finish, Speed, Setup, ColumnCount };
constexpr int kRunIdRole = Qt::UserRole + 1;

QString oneLine(QString text, int max) {
    text.replace(u'\n', QChar(0x21B5));
    return text.size() > max ? text.left(max - 1) + QChar(0x2026) : text;
}
} // namespace

RunsView::RunsView(Database* database, QWidget* parent)
    : QWidget(parent)
    , m_database(database) {
    setObjectName(QStringLiteral("runs"));
    m_model = new QStandardItemModel(0, ColumnCount, this);
    m_model->setHorizontalHeaderLabels({tr("Run"), tr("Created"), tr("Strategy"), tr("Model"), tr("Prompt"),
                                        tr("Output"), tr("Tokens"), tr("Finish"), tr("tok/s"), tr("Computed with")});
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setSortRole(Qt::UserRole);

    m_view = new QTreeView(this);
    m_view->setObjectName(QStringLiteral("runList"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(Id, Qt::DescendingOrder);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->header()->setSectionResizeMode(Output, QHeaderView::Stretch);
    connect(m_view, &QTreeView::activated, this, [this] { openCurrent(); });

    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("runFilter"));
    m_filter->setPlaceholderText(tr("Filter by prompt, output, strategy, model…"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        showCount();
    });
    auto* open = new QPushButton(tr("&Open in Explore"), this);
    connect(open, &QPushButton::clicked, this, &RunsView::openCurrent);
    auto* remove = new QPushButton(tr("&Delete"), this);
    connect(remove, &QPushButton::clicked, this, [this] { deleteRun(currentRunId()); });
    auto* del = new QShortcut(QKeySequence::Delete, m_view, nullptr, nullptr, Qt::WidgetShortcut);
    connect(del, &QShortcut::activated, this, [this] { deleteRun(currentRunId()); });
    auto* reload = new QPushButton(tr("&Refresh"), this);
    connect(reload, &QPushButton::clicked, this, &RunsView::refresh);
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("runCount"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_count);
    bar->addWidget(open);
    bar->addWidget(remove);
    bar->addWidget(reload);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    refresh();
}

namespace {

// Rows at every depth (a branch is a child row of the run it branched from).
int countRows(const QAbstractItemModel& model, const QModelIndex& parent = {}) {
    int n = model.rowCount(parent);
    for (int r = 0, rows = n; r < rows; ++r)
        n += countRows(model, model.index(r, 0, parent));
    return n;
}

} // namespace

// "244 runs", or "3 of 244 runs" while a filter hides some.
void RunsView::showCount() {
    const int all = countRows(*m_model);
    const int shown = countRows(*m_proxy);
    m_count->setText(shown == all ? tr("%n run(s)", nullptr, all) : tr("%1 of %n run(s)", nullptr, all).arg(shown));
}

void RunsView::setFilter(const QString& text) {
    m_filter->setText(text);
}

qint64 RunsView::currentRunId() const {
    const QModelIndex index = m_view->currentIndex();
    return index.isValid() ? index.siblingAtColumn(Id).data(kRunIdRole).toLongLong() : 0;
}

void RunsView::openCurrent() {
    if (const qint64 id = currentRunId())
        emit openRequested(id);
}

void RunsView::refresh() {
    m_model->removeRows(0, m_model->rowCount());
    if (!m_database) {
        m_count->setText(tr("The run store is not open."));
        return;
    }
    RunRepository runs(*m_database);
    Result<std::vector<RunSummary>> list = runs.listRuns();
    if (!list) {
        emit errorMessage(list.error().message);
        return;
    }
    std::map<qint64, QList<QStandardItem*>> rows;
    const auto makeRow = [](const RunSummary& run) {
        QList<QStandardItem*> row;
        const auto cell = [&row](const QString& text, const QVariant& sortKey) {
            auto* item = new QStandardItem(text);
            item->setData(sortKey, Qt::UserRole);
            item->setEditable(false);
            row << item;
        };
        cell(run.branchStep ? QObject::tr("%1 (branch at step %2)").arg(run.id).arg(*run.branchStep + 1)
                            : QString::number(run.id),
             run.id);
        cell(run.createdAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm")), run.createdAt);
        cell(run.strategyName.isEmpty() ? QObject::tr("strategy %1").arg(run.strategyId) : run.strategyName,
             run.strategyName);
        // The model's file (or folder) name; the filter matches it too, so runs of one model can be picked out.
        cell(QFileInfo(run.modelPath).fileName(), run.modelPath);
        row.back()->setToolTip(QDir::toNativeSeparators(run.modelPath));
        cell(oneLine(run.promptText, 60), run.promptText);
        cell(oneLine(run.text, 160), run.text);
        cell(QString::number(run.tokenCount), run.tokenCount);
        cell(run.finishReason, run.finishReason);
        cell(run.tokensPerSecond > 0 ? rateText(run.tokensPerSecond) : QString(), run.tokensPerSecond);
        // Threads, fast math, compute dtype, device, kernel path: "unknown" for runs stored before schema 6.
        const QString setup = setupText(run.setup);
        cell(setup, setup);
        row[Id]->setData(run.id, kRunIdRole);
        row[Prompt]->setToolTip(run.promptText);
        row[Output]->setToolTip(run.text);
        return row;
    };
    // Parents first (ids ascend), so every branch finds its parent's row.
    std::vector<RunSummary> sorted = list.value();
    std::sort(sorted.begin(), sorted.end(), [](const RunSummary& a, const RunSummary& b) { return a.id < b.id; });
    for (const RunSummary& run : sorted) {
        QList<QStandardItem*> row = makeRow(run);
        rows[run.id] = row;
        const auto parent = run.parentRunId ? rows.find(*run.parentRunId) : rows.end();
        if (parent != rows.end())
            parent->second.front()->appendRow(row);
        else
            m_model->appendRow(row);
    }
    showCount();
    m_view->expandAll();
    for (int c = 0; c < ColumnCount; ++c)
        if (c != Output)
            m_view->resizeColumnToContents(c);
}

bool RunsView::deleteRun(qint64 runId, bool confirm) {
    if (runId == 0 || !m_database)
        return false;
    if (confirm &&
        QMessageBox::question(this, tr("Delete Run"),
                              tr("Delete run %1 and every branch of it? This cannot be undone.").arg(runId)) !=
            QMessageBox::Yes)
        return false;
    RunRepository runs(*m_database);
    if (Status status = runs.deleteRun(runId); !status) {
        emit errorMessage(status.error().message);
        return false;
    }
    emit statusMessage(tr("Deleted run %1.").arg(runId));
    refresh();
    emit runDeleted(runId);
    return true;
}

} // namespace swb
