import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the contract's requests over URLSession. Ordinary calls share one ephemeral
/// session (no cookies, no cache: nothing of an answer with tokens is written to disk by
/// the URL loading system); uploads with progress and event streams get a session of
/// their own (`Transfer`), whose delegate reports what a shared session could not.
struct HTTPTransport: Sendable {
    let baseURL: URL
    let configuration: LatchkeyConfiguration
    private let session: URLSession

    init(baseURL: URL, configuration: LatchkeyConfiguration) {
        self.baseURL = baseURL
        self.configuration = configuration
        session = URLSession(configuration: Self.sessionConfiguration(idleTimeout: configuration.requestTimeout))
    }

    static func sessionConfiguration(idleTimeout: TimeInterval) -> URLSessionConfiguration {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.timeoutIntervalForRequest = idleTimeout
        return sessionConfiguration
    }

    /// The URLRequest for `request`, with the bearer token when there is one.
    func urlRequest(_ request: APIRequest, token: String?) throws -> URLRequest {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + request.path) else {
            throw LatchkeyError.network(NetworkFailure(urlErrorCode: nil, description: "not a URL: \(base + request.path)"))
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = request.timeout ?? configuration.requestTimeout
        urlRequest.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { urlRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        switch request.body {
        case .json(let data)?:
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
            urlRequest.httpBody = data
        case .bytes(_, let mediaType)?:
            // The body itself goes to an upload task, which streams it.
            urlRequest.setValue(mediaType, forHTTPHeaderField: "Content-Type")
        case nil:
            break
        }
        return urlRequest
    }

    /// Sends `request` and returns whatever the server answered; only the absence of an
    /// answer throws (`LatchkeyError.network`), or cancellation.
    func send(_ request: APIRequest, token: String?) async throws -> HTTPAnswer {
        let urlRequest = try self.urlRequest(request, token: token)
        do {
            let (data, response): (Data, URLResponse)
            switch request.body {
            case .bytes(let bytes, _)?: (data, response) = try await session.upload(for: urlRequest, from: bytes)
            case .json?, nil: (data, response) = try await session.data(for: urlRequest)
            }
            guard let http = response as? HTTPURLResponse else {
                throw LatchkeyError.unexpectedResponse(status: 0, body: "not an HTTP response")
            }
            return HTTPAnswer(http, body: data)
        } catch {
            throw Self.translated(error)
        }
    }

    /// URLSession's errors as the client's: cancellation stays cancellation, anything else
    /// that kept an answer from arriving is `network`.
    static func translated(_ error: any Error) -> any Error {
        if error is LatchkeyError || error is CancellationError { return error }
        if let urlError = error as? URLError {
            if urlError.code == .cancelled && Task.isCancelled { return CancellationError() }
            return LatchkeyError.network(NetworkFailure(urlErrorCode: urlError.code.rawValue, description: urlError.localizedDescription))
        }
        return LatchkeyError.network(NetworkFailure(urlErrorCode: nil, description: String(describing: error)))
    }
}
