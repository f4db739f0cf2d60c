#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

// Only what Swift cannot import lives here: SQLITE_TRANSIENT is a macro that casts -1 to a
// function pointer, the extended result codes are macro expressions, and sqlite3_db_config
// and sqlite3_config are variadic. Each wrapper gives Swift a plain,
// typed signature and nothing more.

/// Binds UTF-8 text that SQLite copies before returning (SQLITE_TRANSIENT), so the Swift
/// buffer only has to live for the duration of the call.
static inline int csqlite_bind_text_transient(sqlite3_stmt *statement, int index,
                                              const char *text, sqlite3_uint64 byteCount) {
    return sqlite3_bind_text64(statement, index, text, byteCount, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/// Binds bytes that SQLite copies before returning (SQLITE_TRANSIENT).
static inline int csqlite_bind_blob_transient(sqlite3_stmt *statement, int index,
                                              const void *bytes, sqlite3_uint64 byteCount) {
    return sqlite3_bind_blob64(statement, index, bytes, byteCount, SQLITE_TRANSIENT);
}

/// sqlite3_db_config for the boolean options (SQLITE_DBCONFIG_DQS_DML and friends), which
/// take an int and an optional int* that reports the new setting.
static inline int csqlite_db_config_bool(sqlite3 *db, int option, int enabled) {
    return sqlite3_db_config(db, option, enabled, (int *)0);
}

/// Turns off SQLite's memory statistics (sqlite3_config is variadic). With them on, every
/// sqlite3_malloc and sqlite3_free takes a process-wide mutex to count bytes, which
/// nothing here reads: a refresh made about 25 allocations in SQLite, each a lock and an
/// unlock. Only takes effect before SQLite initializes (SQLITE_MISUSE after).
static inline int csqlite_config_memstatus_off(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/// The extended result codes are macros built with `|` and `<<`, which Swift does not import.
static const int CSQLITE_CONSTRAINT_PRIMARYKEY = SQLITE_CONSTRAINT_PRIMARYKEY;
static const int CSQLITE_CONSTRAINT_UNIQUE = SQLITE_CONSTRAINT_UNIQUE;

#endif
