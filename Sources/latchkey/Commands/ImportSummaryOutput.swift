import LatchkeyAPI
import LatchkeyCore

/// `{imported, updated, skipped: [{id, reason}], nameless: [{id, reason}]}`.
struct ImportSummaryRow: Encodable {
    struct Entry: Encodable {
        let id: String
        let reason: String
    }

    let imported: Int
    let updated: Int
    let skipped: [Entry]
    let nameless: [Entry]

    init(_ summary: ImportSummary) {
        imported = summary.imported
        updated = summary.updated
        skipped = summary.skipped.map { Entry(id: $0.id, reason: $0.reason) }
        nameless = summary.nameless.map { Entry(id: $0.id, reason: DisplayNameReason.word(for: $0.reason)) }
    }
}

extension TextTable {
    /// The counts, then a table of each list that is not empty.
    static func importSummary(_ summary: ImportSummary) -> String {
        var parts = ["imported \(summary.imported), updated \(summary.updated), skipped \(summary.skipped.count)"]
        if !summary.skipped.isEmpty {
            parts.append("\nskipped (not written):\n" + render(["ID", "REASON"], summary.skipped.map { [$0.id, $0.reason] }))
        }
        if !summary.nameless.isEmpty {
            parts.append(
                "\nwithout a display name (each chooses one with PATCH /v1/users/me):\n"
                    + render(["ID", "REASON"], summary.nameless.map { [$0.id, DisplayNameReason.word(for: $0.reason)] })
            )
        }
        return parts.joined(separator: "\n")
    }
}
