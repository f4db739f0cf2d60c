#ifndef CPOSTGRESQL_SHIM_H
#define CPOSTGRESQL_SHIM_H

#include <libpq-fe.h>
#include <errno.h>
#include <poll.h>

// Only what Swift cannot import cleanly lives here: the PG_DIAG_* field codes are character
// macros, and waiting on the socket needs poll() and errno, which the PostgreSQL target
// reaches through this header so that it imports nothing but CPostgreSQL.

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
