import Foundation
import Synchronization
@testable import HTTPServer

/// What the test handlers observed, for tests that cannot see it on the wire.
final class TestProbe: Sendable {
    private let slowStarts = Atomic<Int>(0)
    private let unfinishedClosed = Atomic<Bool>(false)
    private let floodAccepted = Atomic<Int>(-1)
    private let watchers = Mutex<[ResponseStream]>([])
    private let watchersClosed = Atomic<Int>(0)

    /// The streams `/watch` opened, in order; a test broadcasts to them.
    var watchStreams: [ResponseStream] { watchers.withLock { $0 } }
    var watchStreamsClosed: Int { watchersClosed.load(ordering: .sequentiallyConsistent) }
    func watchStreamOpened(_ stream: ResponseStream) { watchers.withLock { $0.append(stream) } }
    func watchStreamDidClose() { watchersClosed.add(1, ordering: .sequentiallyConsistent) }

    var slowRequestsStarted: Int { slowStarts.load(ordering: .sequentiallyConsistent) }
    var unfinishedStreamClosed: Bool { unfinishedClosed.load(ordering: .sequentiallyConsistent) }

    func slowRequestStarted() { slowStarts.add(1, ordering: .sequentiallyConsistent) }
    func unfinishedStreamDidClose() { unfinishedClosed.store(true, ordering: .sequentiallyConsistent) }

    /// Bytes `/flood` got into its stream before a write was refused; -1 while it writes.
    var floodAcceptedBytes: Int { floodAccepted.load(ordering: .sequentiallyConsistent) }
    func floodStopped(after bytes: Int) { floodAccepted.store(bytes, ordering: .sequentiallyConsistent) }
}

/// A counter shared between a test and a thread it started.
final class SharedCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .sequentiallyConsistent) }
    func increment() { count.add(1, ordering: .sequentiallyConsistent) }
}

/// A failure whose text must never reach the client.
struct SecretFailure: Error, CustomStringConvertible {
    static let secret = "hunter2"
    var description: String { "the database password is \(Self.secret)" }
}

/// Takes a body in pieces and remembers their sizes; refuses a piece holding `!`.
final class PieceCounter: RequestBodyReceiver, @unchecked Sendable {
    private(set) var bytes = 0
    private(set) var largestPiece = 0
    private(set) var finished = false

    func receive(_ piece: UnsafeRawBufferPointer) throws {
        if piece.contains(UInt8(ascii: "!")) { throw SecretFailure() }
        bytes += piece.count
        largestPiece = max(largestPiece, piece.count)
    }

    func finish() { finished = true }
}

enum TestRoutes {
    static let streamedChunks = ["one", "two", "three"]
    /// Larger than the socket buffers and the engine's output high-water mark together.
    static let bigBody: [UInt8] = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    /// `bigBody` as a file, and an empty one, for the file-body routes.
    static let bigFile = temporaryFile(bigBody)
    static let emptyFile = temporaryFile([])

    private static func temporaryFile(_ bytes: [UInt8]) -> String {
        let path = NSTemporaryDirectory() + "latchkey-file-body-\(UUID().uuidString)"
        precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "could not write \(path)")
        return path
    }

    static func router(probe: TestProbe) -> Router {
        var router = Router()
        // Answered from another thread through the sink, the way a database writer does:
        // one plain answer and one the loop builds.
        router.add("GET", "/deferred", .deferred { request, sink in
            let built = request.queryParameter("built") != nil
            Thread.detachNewThread {
                usleep(50_000)
                if built {
                    sink.respond { Response(status: 200, body: Array("built".utf8)) }
                } else {
                    sink.respond(Response(status: 200, body: Array("deferred".utf8)))
                }
            }
        })
        router.add("GET", "/hello", inline: { _ in
            Response(status: 200, headers: [HTTPField(name: "Content-Type", value: "text/plain")], body: Array("hello".utf8))
        })
        router.add("POST", "/echo", bodyLimit: 1024, inline: { request in
            Response(status: 200, body: request.body)
        })
        router.add("POST", "/pieces", bodyLimit: 1 << 20, receiveBody: { _ in PieceCounter() }, .inline { request in
            guard let counter = request.receivedBody as? PieceCounter, request.body.isEmpty else { return Response(status: 500) }
            return Response(status: 200, body: Array("bytes=\(counter.bytes) largest=\(counter.largestPiece) finished=\(counter.finished)".utf8))
        })
        router.add("GET", "/big", inline: { _ in
            Response(status: 200, body: bigBody)
        })
        router.add("GET", "/file", inline: { request in
            guard let file = FileBody(path: request.queryParameter("empty") == nil ? bigFile : emptyFile) else { return Response(status: 404) }
            return Response(status: 200, headers: [HTTPField(name: "Content-Type", value: "application/octet-stream")], file: file)
        })
        router.add("GET", "/slow", .deferred { _, sink in
            probe.slowRequestStarted()
            Task.detached {
                try? await Task.sleep(for: .milliseconds(200))
                sink.respond(Response(status: 200, body: Array("slow".utf8)))
            }
        })
        router.add("GET", "/fail", inline: { _ in
            throw SecretFailure()
        })
        router.add("GET", "/stream", inline: { _ in
            let stream = ResponseStream()
            Task.detached {
                for chunk in streamedChunks {
                    stream.write(Array(chunk.utf8))
                    try? await Task.sleep(for: .milliseconds(10))
                }
                stream.finish()
            }
            return Response(status: 200, stream: stream)
        })
        // Writes 4 KiB chunks until the stream refuses one (at most 64 MiB): a producer
        // whose reader never reads.
        router.add("GET", "/flood", inline: { _ in
            let stream = ResponseStream(highWater: 64 * 1024)
            Task.detached {
                let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
                var accepted = 0
                for _ in 0..<16_384 {
                    guard stream.write(chunk) else { break }
                    accepted += chunk.count
                    if accepted % (256 * 1024) == 0 { try? await Task.sleep(for: .milliseconds(1)) }
                }
                probe.floodStopped(after: accepted)
            }
            return Response(status: 200, stream: stream)
        })
        // A stream that says hello, then carries what a test broadcasts to it.
        router.add("GET", "/watch", inline: { _ in
            let stream = ResponseStream(highWater: 64 * 1024)
            stream.onClose { probe.watchStreamDidClose() }
            stream.write(Array("hello".utf8))
            probe.watchStreamOpened(stream)
            return Response(status: 200, stream: stream)
        })
        router.add("GET", "/unfinished", inline: { _ in
            let stream = ResponseStream()
            stream.onClose { probe.unfinishedStreamDidClose() }
            stream.write(Array("started".utf8))
            return Response(status: 200, stream: stream)
        })
        return router
    }
}
