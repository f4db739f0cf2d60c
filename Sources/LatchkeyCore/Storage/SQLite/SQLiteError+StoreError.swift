internal import SQLite

extension SQLiteError: DriverError {
    var storeError: StoreError {
        switch self {
        case .busy: .busy
        case .uniqueViolation: .conflict
        case .constraint, .corrupt, .readOnly, .other: .failed(description)
        }
    }
}
