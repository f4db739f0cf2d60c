import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps a presence stream open for one `presenceUpdates` sequence: connects, turns
/// `presence` events into values, and after a drop connects again after a pause. Every
/// connection begins with a snapshot of each watched user, which is how the stream
/// resumes: the server keeps no history to replay, and needs none.
struct PresenceFeed: Sendable {
    let client: Latchkey
    let path: String

    /// How one connection ended.
    private enum Ending {
        /// The stream ran and ended (server restart, network change); `worked` when it
        /// delivered anything, after which the pauses start again from the shortest.
        case dropped(worked: Bool)
        /// The server is overloaded or throttling: wait at least `retryAfter` seconds.
        case refusedForNow(retryAfter: Int?)
        /// The access token was refreshed: connect again at once.
        case tokenRenewed
    }

    func run(into continuation: AsyncThrowingStream<Presence, any Error>.Continuation) async {
        let backoff = client.configuration.presenceBackoff
        var failures = 0
        var renewedJustBefore = false
        // One connection per pass, then a pause of at least the back-off's first step
        // (bar a single immediate retry after a refresh), so the loop never spins. It ends
        // when the consumer stops (cancellation) or when retrying cannot help.
        while !Task.isCancelled {
            let pause: TimeInterval
            do {
                let ending = try await connect(continuation)
                let immediately = if case .tokenRenewed = ending { !renewedJustBefore } else { false }
                renewedJustBefore = immediately
                switch ending {
                case .dropped(let worked):
                    failures = worked ? 1 : failures + 1
                    pause = backoff.delay(afterFailures: failures)
                case .refusedForNow(let retryAfter):
                    failures += 1
                    pause = max(TimeInterval(retryAfter ?? 0), backoff.delay(afterFailures: failures))
                case .tokenRenewed:
                    // A second refusal in a row after a refresh waits like any failure.
                    if !immediately { failures += 1 }
                    pause = immediately ? 0 : backoff.delay(afterFailures: failures)
                }
            } catch LatchkeyError.network {
                failures += 1
                pause = backoff.delay(afterFailures: failures)
                renewedJustBefore = false
            } catch is CancellationError {
                break
            } catch {
                continuation.finish(throwing: error)
                return
            }
            do { try await Task.sleep(for: .seconds(pause)) } catch { break }
        }
        continuation.finish()
    }

    /// Opens one connection and reads it to its end.
    private func connect(_ continuation: AsyncThrowingStream<Presence, any Error>.Continuation) async throws -> Ending {
        let credential = try await client.state.credential()
        var request = try client.transport.urlRequest(
            APIRequest("GET", path, timeout: client.configuration.presenceIdleTimeout), token: credential.accessToken)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        let prepared = request
        let events = Transfer.start(idleTimeout: client.configuration.presenceIdleTimeout) { $0.dataTask(with: prepared) }
        var parser = ServerSentEventParser()
        var head: ResponseHead?
        var refusal = Data()
        for await event in events {
            switch event {
            case .sent:
                continue
            case .received(let data, let received):
                head = head ?? received
                guard head?.status == 200 else {
                    refusal.append(data)
                    continue
                }
                for message in parser.feed(data) where message.event == "presence" {
                    // An event this client cannot read is skipped, not fatal: the next
                    // snapshot or change brings that user again.
                    if let presence = try? JSONCoding.decode(Presence.self, from: Data(message.data.utf8)) {
                        continuation.yield(presence)
                    }
                }
            case .finished(let finished, let failure):
                if let answered = head ?? finished, answered.status != 200 {
                    return try await refused(HTTPAnswer(status: answered.status, headers: answered.headers, body: refusal), credential)
                }
                // A stream that ran and then broke is a drop; one that never got going is
                // a network failure.
                if let failure, head == nil { throw HTTPTransport.translated(failure) }
                return .dropped(worked: head != nil)
            }
        }
        try Task.checkCancellation()
        return .dropped(worked: head != nil)
    }

    /// What to do about a connection the server refused.
    private func refused(_ answer: HTTPAnswer, _ credential: Credential) async throws -> Ending {
        if answer.status == 429 || answer.status >= 500 { return .refusedForNow(retryAfter: answer.problem?.retryAfter) }
        guard let problem = answer.problem else { throw answer.refusal }
        if problem.status == 401, problem.code == .tokenExpired || problem.code == .invalidToken {
            _ = try await client.state.renewed(after: credential)
            return .tokenRenewed
        }
        if SessionState.endsSession(problem) {
            await client.state.sessionEnded(epoch: credential.epoch)
            throw LatchkeyError.sessionEnded(problem)
        }
        throw LatchkeyError.server(problem)
    }
}
