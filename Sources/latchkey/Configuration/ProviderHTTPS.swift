import ClientSocket
import HTTPSClient
import LatchkeyCore

/// The sign-in providers' documents over `HTTPSClient`, trusting the system's CAs plus
/// those of `outboundCAFile`.
struct ProviderHTTPS: ProviderDocumentFetcher {
    let client: HTTPSClient

    init(caFile: String?) throws {
        client = HTTPSClient(context: try TLSContext(caFile: caFile, addingToSystemStore: true))
    }

    func get(_ url: String) throws -> FetchedDocument {
        let response = try client.get(url)
        return FetchedDocument(status: response.status, cacheControl: response.header("Cache-Control"), body: response.body)
    }
}
