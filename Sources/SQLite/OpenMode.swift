/// How a connection opens its file.
public enum OpenMode: Sendable {
    /// Read and write, creating the file if it does not exist; switches the database to WAL.
    case readWrite
    /// Read only; any write fails with `SQLiteError.readOnly`. The file must exist.
    case readOnly
}
