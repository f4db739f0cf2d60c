extension String {
    /// Zeros in front up to `width` characters: key ids, numbered files.
    public func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
