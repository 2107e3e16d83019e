#pragma once

#include <QString>
#include <QStringList>

namespace swb {

// Which file a path is, for the rule that nothing the workbench writes may replace something it reads:
// the CLI's outputs (--out, --trace, …) against the command's inputs, the GUI's save dialogs against the
// open run store.

// SQLite's companions of the store at `storePath`: its write-ahead log, shared memory and rollback journal
// (they hold committed runs until a checkpoint).
QStringList storeCompanionFiles(const QString& storePath);

// "-wal", "-shm" or "-journal" when `path` names such a companion by its name, else empty.
QString storeCompanionSuffix(const QString& path);

// The store that `path` is a companion of ("runs.sqlite" for "runs.sqlite-wal") when that store exists, else
// empty: such a file holds another store's committed runs, whichever command names it.
QString storeOwningCompanion(const QString& path);

// Whether writing `output` would replace `input`: the same file through any path (relative paths and
// symbolic links resolved, hard links by device and inode), or, when `input` is a folder (a model's), a file
// that already exists inside it.
bool overwrites(const QString& output, const QString& input);

// The file of the run store at `storePath` (the store itself or one of its companions) that writing `output`
// would replace, or empty.
QString overwrittenStoreFile(const QString& output, const QString& storePath);

// overwrittenStoreFile against every run store this process has open (Database::openPaths): the file that
// writing `output` would replace, or empty. The GUI's save dialogs refuse such a file.
QString overwrittenOpenStoreFile(const QString& output);

} // namespace swb
