/// What the server's outbound HTTPS answered for a provider's document (discovery or key
/// set). The executable gives the HTTPS client behind it, so the domain names no socket.
public struct FetchedDocument: Sendable {
    public let status: Int
    public let cacheControl: String?
    public let body: [UInt8]

    public init(status: Int, cacheControl: String?, body: [UInt8]) {
        self.status = status
        self.cacheControl = cacheControl
        self.body = body
    }
}

/// A blocking `GET` of an `https://` URL with the certificate and host checked, deadlines
/// and a bounded answer (`HTTPSClient`). Called only off the event loops (`ProviderKeys`).
/// A thrown error's description names the step and host, never a secret.
public protocol ProviderDocumentFetcher: Sendable {
    func get(_ url: String) throws -> FetchedDocument
}

/// For a server with no sign-in provider configured: nothing is ever fetched.
public struct NoProviderDocuments: ProviderDocumentFetcher {
    public init() {}

    public func get(_ url: String) throws -> FetchedDocument {
        throw NoOutboundHTTPS()
    }

    struct NoOutboundHTTPS: Error, CustomStringConvertible {
        var description: String { "no outbound HTTPS is configured" }
    }
}
