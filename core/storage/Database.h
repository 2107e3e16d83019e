#pragma once

#include <memory>

#include <QSqlDatabase>
#include <QSqlError>
#include <QString>
#include <QStringList>

#include "Result.h"

class QSqlQuery;

namespace swb {

// The run store's SQLite file: WAL, foreign keys on, busy timeout, schema migrations keyed by
// PRAGMA user_version (each in its own transaction). One Database per thread: it owns a
// connection with a unique name, opened in the thread that creates it and closed on destruction.
//
// open() never changes a file it cannot use: a file that is not SQLite, is corrupt, or carries a
// newer schema than this build knows is rejected before anything is written to it.
class Database {
public:
    static constexpr int kSchemaVersion = 9;
    // SQLite's application_id of our stores: "SWB1".
    static constexpr qint64 kApplicationId = 0x53574231;

    enum class Access { ReadWrite, ReadOnly };

    // ReadWrite creates the store when it does not exist and migrates an older schema. ReadOnly opens an
    // existing store of the current schema and changes nothing: neither the file nor its journal mode.
    static Result<std::unique_ptr<Database>> open(const QString& path, Access access = Access::ReadWrite);
    // QStandardPaths::AppDataLocation/workbench.sqlite
    static QString defaultPath();
    // The paths of the stores this process has open now (for the rule that nothing it saves replaces one).
    static QStringList openPaths();

    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    QSqlDatabase& connection() { return m_db; }
    const QString& path() const { return m_path; }
    bool isReadOnly() const { return m_readOnly; }

    // A prepared statement on this connection; errors come back as values.
    QSqlQuery prepare(const QString& sql) const;
    // Runs a prepared statement; a failure names the store and says why in SQLite's words (a busy store:
    // that another program holds it, after waiting 5 s), never Qt's driver text.
    Status exec(QSqlQuery& query, const QString& what);
    Status execSql(const QString& sql, const QString& what);

    // BEGIN IMMEDIATE ... COMMIT, rolled back unless commit() is called.
    class Transaction {
    public:
        explicit Transaction(Database& database);
        ~Transaction();
        Status begin();
        Status commit();

    private:
        Database& m_database;
        bool m_open = false;
    };

private:
    Database(QString path, QString connectionName);
    Status migrate();

    QString m_path;
    QString m_connectionName;
    QSqlDatabase m_db;
    bool m_readOnly = false;
    bool m_tidyAfterReading = false; // see tidyAfterReading in Database.cpp
    QSqlError m_lastError; // of the last statement that failed (to tell a busy store from other failures)
};

} // namespace swb
