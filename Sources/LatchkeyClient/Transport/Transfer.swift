import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The status and header fields of an answer (names lower-cased).
struct ResponseHead: Sendable {
    let status: Int
    let headers: [String: String]

    init?(_ response: URLResponse?) {
        guard let http = response as? HTTPURLResponse else { return nil }
        let answer = HTTPAnswer(http, body: Data())
        (status, headers) = (answer.status, answer.headers)
    }
}

/// What a delegate-driven task reports, in order.
enum TransferEvent: Sendable {
    case sent(bytes: Int64, total: Int64?)
    case received(Data, head: ResponseHead?)
    case finished(head: ResponseHead?, failure: (any Error)?)
}

/// One task on a URLSession of its own whose delegate turns callbacks into an
/// `AsyncStream`: upload progress, and the body piece by piece as it arrives (an event
/// stream never ends on its own). The async `URLSession` methods offer neither on every
/// platform: on Linux a task with a completion handler reports no progress, and there is
/// no `bytes(for:)`.
enum Transfer {
    /// Starts the task `make` builds. Ending the iteration (or cancelling the task that
    /// iterates) cancels it and lets the session go.
    static func start(idleTimeout: TimeInterval, _ make: (URLSession) -> URLSessionTask) -> AsyncStream<TransferEvent> {
        let (events, continuation) = AsyncStream.makeStream(of: TransferEvent.self, bufferingPolicy: .unbounded)
        let relay = TransferRelay(continuation)
        let session = URLSession(
            configuration: HTTPTransport.sessionConfiguration(idleTimeout: idleTimeout), delegate: relay, delegateQueue: nil)
        let task = make(session)
        // The session holds its delegate until it is invalidated; this also cancels the
        // task when the reader stops early.
        continuation.onTermination = { _ in session.invalidateAndCancel() }
        task.resume()
        return events
    }
}

/// The delegate of a `Transfer`'s session. Immutable and Sendable: it only forwards.
/// The response arrives with each piece of the body rather than in a callback of its own,
/// because that callback's completion-handler signature differs between platforms' SDKs.
final class TransferRelay: NSObject, URLSessionDataDelegate, Sendable {
    private let continuation: AsyncStream<TransferEvent>.Continuation

    init(_ continuation: AsyncStream<TransferEvent>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        continuation.yield(.sent(bytes: totalBytesSent, total: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.received(data, head: ResponseHead(dataTask.response)))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.yield(.finished(head: ResponseHead(task.response), failure: error))
        continuation.finish()
    }
}
