/// The apps that may use this server's domain for their users' credentials: iOS apps
/// (`TEAMID.bundle.id`) through `webcredentials`, Android apps by package and signing
/// certificate. Their platforms fetch the association files from the domain itself, so an
/// app can offer passkeys and saved passwords without a second web server.
public struct AppAssociation: Sendable, Equatable {
    public struct AndroidApp: Sendable, Equatable {
        public let package: String
        /// `AA:BB:…`, 32 upper-case hex pairs: the SHA-256 of the app's signing certificate.
        public let certificateFingerprint: String

        public init(package: String, certificateFingerprint: String) {
            self.package = package
            self.certificateFingerprint = certificateFingerprint
        }
    }

    public let appleAppIDs: [String]
    public let androidApps: [AndroidApp]

    public init(appleAppIDs: [String] = [], androidApps: [AndroidApp] = []) {
        self.appleAppIDs = appleAppIDs
        self.androidApps = androidApps
    }
}
