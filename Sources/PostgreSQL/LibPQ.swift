import CPostgreSQL

/// libpq, loaded on first use rather than linked (see CPostgreSQL's shim.h): a latchkey over
/// SQLite never maps it. `Connection.init` loads it, and reports a missing library as a
/// connection error; every other call into libpq holds a connection, so it is loaded by then.
enum LibPQ {
    static let loaded: Result<cpostgresql_libpq, PostgreSQLError> = {
        var error: UnsafePointer<CChar>?
        guard let functions = cpostgresql_load(&error) else {
            let reason = error.map { String(cString: $0) } ?? "unknown error"
            return .failure(.cannotConnect(message: "libpq could not be loaded (install libpq5): \(reason)"))
        }
        return .success(functions.pointee)
    }()
}

/// libpq's functions: `libpq.PQexec(...)`.
let libpq: cpostgresql_libpq = {
    switch LibPQ.loaded {
    case .success(let functions): return functions
    case .failure(let error): fatalError("\(error): called before Connection.init loaded it")
    }
}()
