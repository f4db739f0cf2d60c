extension StringProtocol {
    /// Without leading and trailing whitespace and newlines (Unicode's definition):
    /// what Foundation's `trimmingCharacters(in:)` does, without linking Foundation.
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
