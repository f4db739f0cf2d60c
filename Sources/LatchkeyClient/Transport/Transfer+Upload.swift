import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPTransport {
    /// Sends a request whose body is picture bytes, reporting each step of the
    /// upload to `progress` as the system hands bytes to the network.
    func upload(
        _ request: APIRequest, token: String, progress: (@Sendable (UploadProgress) -> Void)?
    ) async throws -> HTTPAnswer {
        let urlRequest = try self.urlRequest(request, token: token)
        let body = request.body
        let events = Transfer.start(idleTimeout: request.timeout ?? configuration.requestTimeout) { session in
            switch body {
            case .bytes(let bytes, _)?: return session.uploadTask(with: urlRequest, from: bytes)
            case .json(let data)?: return session.uploadTask(with: urlRequest, from: data)
            case nil: return session.dataTask(with: urlRequest)
            }
        }
        return try await Self.collect(events, progress: progress)
    }

    /// Reads a transfer to its end: the whole answer, or the reason there is none.
    static func collect(
        _ events: AsyncStream<TransferEvent>, progress: (@Sendable (UploadProgress) -> Void)? = nil
    ) async throws -> HTTPAnswer {
        var body = Data()
        var head: ResponseHead?
        for await event in events {
            switch event {
            case .sent(let bytes, let total):
                progress?(UploadProgress(bytesSent: bytes, totalBytes: total))
            case .received(let data, let received):
                head = head ?? received
                body.append(data)
            case .finished(let finished, let failure):
                if let failure { throw translated(failure) }
                guard let head = finished ?? head else {
                    throw LatchkeyError.unexpectedResponse(status: 0, body: "not an HTTP response")
                }
                return HTTPAnswer(status: head.status, headers: head.headers, body: body)
            }
        }
        // The events stop early only when the reading task was cancelled.
        try Task.checkCancellation()
        throw LatchkeyError.network(NetworkFailure(urlErrorCode: nil, description: "the transfer ended without an answer"))
    }
}
