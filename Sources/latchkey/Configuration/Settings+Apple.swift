import ClientSocket
import HTTPSClient
import LatchkeyCore

extension Settings {
    struct AppleSettingsError: Error, CustomStringConvertible {
        let description: String
    }

    /// Apple's token endpoints with the client secret's signer, when `appleTeamID`,
    /// `appleKeyID` and `appleKeyFile` are set (nil when none is). The key file is read
    /// here, at start, so a wrong one stops the server with one line naming the setting.
    func appleTokenEndpoint() throws -> AppleTokenEndpoint? {
        switch (appleTeamID, appleKeyID, appleKeyFile) {
        case (nil, nil, nil):
            return nil
        case let (teamID?, keyID?, keyFile?):
            let key = try AppleServerKey.load(path: keyFile)
            let context: TLSContext
            do {
                context = try TLSContext(caFile: outboundCAFile)
            } catch {
                throw AppleSettingsError(description: "outboundCAFile: \(error)")
            }
            return AppleTokenEndpoint(
                client: HTTPSClient(context: context), baseURL: appleBaseURL,
                secrets: AppleClientSecrets(teamID: teamID, keyID: keyID, key: key, audience: appleBaseURL)
            )
        default:
            throw AppleSettingsError(description: "appleTeamID, appleKeyID and appleKeyFile go together: set all three, or none")
        }
    }
}
