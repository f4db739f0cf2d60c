/// A statement prepared in this session under a generated name.
struct PreparedStatement {
    let name: String
    /// The number of `?` in the SQL, which must equal the number of values bound.
    let parameterCount: Int
}
