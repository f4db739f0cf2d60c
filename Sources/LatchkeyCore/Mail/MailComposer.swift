/// Every message Latchkey sends, from `MailTemplates` with the product name and public URL
/// filled in, and sealed for the outbox (`SealedMail`): what leaves here can only be
/// queued, and no link is ever written to the database in the clear. Tokens appear only in
/// links; notices carry none.
public struct MailComposer: Sendable {
    public let productName: String
    /// Links point here: `{publicURL}/reset-password?token=…`.
    public let publicURL: String
    let templates: MailTemplates
    let outboxKey: OutboxKey

    public init(productName: String = "Latchkey", publicURL: String, templates: MailTemplates = .load(overridesIn: nil), outboxKey: OutboxKey) {
        self.productName = productName
        self.publicURL = publicURL
        self.templates = templates
        self.outboxKey = outboxKey
    }

    func passwordReset(to recipient: String, token: String) -> SealedMail {
        render(.passwordReset, to: recipient, ["link": "\(publicURL)/reset-password?token=\(token)"])
    }

    func emailVerification(to recipient: String, token: String) -> SealedMail {
        render(.emailVerification, to: recipient, ["link": "\(publicURL)/verify-email?token=\(token)"])
    }

    func emailChangeConfirmation(to recipient: String, token: String) -> SealedMail {
        render(.emailChangeConfirmation, to: recipient, ["link": "\(publicURL)/verify-email?token=\(token)"])
    }

    /// To the old address when a change is asked for.
    func emailChangeNotice(to recipient: String, newAddress: String) -> SealedMail {
        render(.emailChangeNotice, to: recipient, ["newAddress": newAddress])
    }

    /// An account event's notice (`AccountEvent.notice`).
    func notice(_ notice: AccountEvent.Notice, to recipient: String) -> SealedMail {
        switch notice {
        case .passwordChanged: render(.passwordChanged, to: recipient, [:])
        case .signInMethodChanged(let change): render(.signInMethodChanged, to: recipient, ["change": change.sentence])
        }
    }

    private func render(_ kind: MailTemplates.Kind, to recipient: String, _ values: [String: String]) -> SealedMail {
        let message = templates.render(kind, to: recipient, values: values.merging(["productName": productName, "publicURL": publicURL]) { first, _ in first })
        return SealedMail(message, key: outboxKey)
    }
}

/// Text made safe to put inside HTML elements and attribute values (mail and pages).
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
