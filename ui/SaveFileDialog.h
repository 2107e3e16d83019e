#pragma once

#include <QString>

class QWidget;

namespace swb {

// The sentence refusing to save to `path`, or empty when it may be written: never onto a run store this
// process has open, nor its -wal, -shm or -journal file (they hold committed runs).
QString refusedSaveTarget(const QString& path);

// QFileDialog::getSaveFileName that refuses such a file: it says why and asks again. Empty when cancelled.
QString getSaveFileName(QWidget* parent, const QString& caption, const QString& suggestion,
                        const QString& filter = QString());

} // namespace swb
