#ifndef CPOSTGRESQL_SHIM_H
#define CPOSTGRESQL_SHIM_H

#include <postgresql/libpq-fe.h>
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>

// libpq is not linked: it is loaded with dlopen the first time a connection is made. Linked,
// it was mapped into every latchkey process, SQLite ones too, with what it pulls in (gnutls,
// krb5, ldap, p11-kit: about 3 MB of resident memory at start). libpq-fe.h is included for
// its types and constants only; its functions are reached through `cpostgresql_libpq`.
// Also here: what Swift cannot import cleanly (the PG_DIAG_* field codes are character
// macros; waiting on the socket needs poll() and errno).

/// The libpq functions the PostgreSQL target calls: return type, name, parameters. A string
/// libpq always returns (for a connection, a result, an index within it) is `_Nonnull`.
#define CPOSTGRESQL_FUNCTIONS(X) \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname)) \
    X(ConnStatusType, PQstatus, (const PGconn *conn)) \
    X(void, PQfinish, (PGconn *conn)) \
    X(void, PQreset, (PGconn *conn)) \
    X(char *_Nonnull, PQerrorMessage, (const PGconn *conn)) \
    X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn)) \
    X(int, PQsocket, (const PGconn *conn)) \
    X(int, PQbackendPID, (const PGconn *conn)) \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *conn, PQnoticeProcessor proc, void *arg)) \
    X(PGresult *, PQexec, (PGconn *conn, const char *query)) \
    X(PGresult *, PQprepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes)) \
    X(PGresult *, PQexecPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, \
                                   const int *paramLengths, const int *paramFormats, int resultFormat)) \
    X(int, PQconsumeInput, (PGconn *conn)) \
    X(PGnotify *, PQnotifies, (PGconn *conn)) \
    X(void, PQfreemem, (void *ptr)) \
    X(ExecStatusType, PQresultStatus, (const PGresult *res)) \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode)) \
    X(char *_Nonnull, PQcmdStatus, (PGresult *res)) \
    X(char *_Nonnull, PQcmdTuples, (PGresult *res)) \
    X(int, PQntuples, (const PGresult *res)) \
    X(int, PQnfields, (const PGresult *res)) \
    X(char *_Nonnull, PQfname, (const PGresult *res, int field_num)) \
    X(Oid, PQftype, (const PGresult *res, int field_num)) \
    X(char *_Nonnull, PQgetvalue, (const PGresult *res, int tup_num, int field_num)) \
    X(int, PQgetlength, (const PGresult *res, int tup_num, int field_num)) \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num)) \
    X(void, PQclear, (PGresult *res)) \
    X(int, PQsendQuery, (PGconn *conn, const char *query)) \
    X(int, PQisBusy, (PGconn *conn)) \
    X(PGresult *, PQgetResult, (PGconn *conn))

#define CPOSTGRESQL_FIELD(returns, name, parameters) returns (* _Nonnull name) parameters;
/// libpq's functions, resolved from the loaded library.
typedef struct {
    CPOSTGRESQL_FUNCTIONS(CPOSTGRESQL_FIELD)
} cpostgresql_libpq;
#undef CPOSTGRESQL_FIELD

/// Loads libpq (Debian's libpq5) and resolves its functions into a table that lives as long
/// as the process. NULL, with `*error` set to dlerror()'s text, when the library or one of
/// its functions cannot be found.
static inline const cpostgresql_libpq *_Nullable cpostgresql_load(const char *_Nullable *_Nonnull error) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) { *error = dlerror(); return NULL; }
    cpostgresql_libpq *functions = malloc(sizeof *functions);
    if (functions == NULL) { *error = "out of memory"; return NULL; }
#define CPOSTGRESQL_RESOLVE(returns, name, parameters) \
    if ((*(void **)&functions->name = dlsym(library, #name)) == NULL) { *error = dlerror(); free(functions); return NULL; }
    CPOSTGRESQL_FUNCTIONS(CPOSTGRESQL_RESOLVE)
#undef CPOSTGRESQL_RESOLVE
    return functions;
}

/// The error fields this wrapper reads (postgres_ext.h defines them as char literals).
static const int CPOSTGRESQL_DIAG_SQLSTATE = PG_DIAG_SQLSTATE;
static const int CPOSTGRESQL_DIAG_MESSAGE_PRIMARY = PG_DIAG_MESSAGE_PRIMARY;
static const int CPOSTGRESQL_DIAG_CONSTRAINT_NAME = PG_DIAG_CONSTRAINT_NAME;

/// Waits up to `timeout_ms` for `socket` to become readable: 1 when it is (or has an error
/// or hang-up to report, which PQconsumeInput then surfaces), 0 on timeout, and -errno on
/// failure, so the caller can retry EINTR without reading errno itself.
static inline int cpostgresql_wait_readable(int socket, int timeout_ms) {
    struct pollfd descriptor = { .fd = socket, .events = POLLIN, .revents = 0 };
    int ready = poll(&descriptor, 1, timeout_ms);
    if (ready < 0) return -errno;
    return ready > 0 ? 1 : 0;
}

/// EINTR for comparing against cpostgresql_wait_readable's negative answer.
static const int CPOSTGRESQL_EINTR = EINTR;

#endif
