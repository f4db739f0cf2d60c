import Glibc

/// Reading, parsing and dispatching requests, in order, on the loop's thread.
extension EventLoop {
    func readable(_ connection: Connection) {
        guard !connection.isClosed else { return }
        let result: IOResult<Int>
        do {
            result = try syscall("read") { Glibc.read(connection.fd, readBuffer.baseAddress, readBuffer.count) }
        } catch {
            close(connection)
            return
        }
        guard case .done(let count) = result else { return }
        let event: ConnectionPolicy.Event = count == 0
            ? .peerClosed(streaming: connection.isStreaming, holding: connection.pendingOutput > 0 || connection.unreadCount > 0)
            : .bytesRead
        guard handle(event, on: connection) else { return }
        if count > 0 { connection.appendInput(UnsafeBufferPointer(rebasing: readBuffer[0..<count])) }
        process(connection)
        flush(connection)
        applyBackpressure(connection)
    }

    /// Parses and answers as many buffered requests as it can, in order.
    func process(_ connection: Connection) {
        while !connection.isClosed, connection.pendingOutput < ConnectionPolicy.outputHighWater {
            switch connection.policy.wait {
            case .idle, .head:
                // Empty lines between requests are ignored (RFC 9112 §2.2); they must not
                // start the header timer, or an idle client gets an unsolicited 408.
                while connection.policy.wait == .idle, connection.unreadCount >= 2,
                      connection.input[connection.inputStart] == ASCII.cr, connection.input[connection.inputStart + 1] == ASCII.lf {
                    connection.consumeInput(2)
                }
                guard connection.unreadCount > 0 else {
                    handle(.inputExhausted, on: connection)
                    return
                }
                handle(.headBegan, on: connection)
                let result = connection.input.withUnsafeBufferPointer { buffer in
                    connection.parser.parse(UnsafeBufferPointer(rebasing: buffer[connection.inputStart...]))
                }
                switch result {
                case .incomplete:
                    handle(.inputExhausted, on: connection)
                    return
                case .failure(let error):
                    connection.parser.reset()
                    respondAndClose(connection, problem: Self.problem(for: error), version: .http1_1)
                    return
                case .complete(let head, let consumed):
                    connection.parser.reset()
                    connection.consumeInput(consumed)
                    begin(head, on: connection)
                }
            case .body:
                guard readBody(connection), let pending = connection.pending else { return }
                connection.pending = nil
                dispatch(pending, on: connection)
            case .response, .closing:
                return
            }
        }
    }

    static func problem(for error: HeadParseError) -> Problem {
        switch error {
        case .badRequest(let reason): .badRequest(reason)
        case .requestLineTooLong: .uriTooLong
        case .headerSectionTooLarge: .headerFieldsTooLarge
        case .versionNotSupported: .versionNotSupported
        }
    }

    /// Validates framing, routes, and applies the route's body limit before any body byte is read.
    func begin(_ head: RequestHead, on connection: Connection) {
        let requestID = Self.saneRequestID(head.field("x-request-id")) ?? makeRequestID()
        let framing: BodyFraming
        switch head.bodyFraming() {
        case .success(let value): framing = value
        case .failure(.badRequest(let reason)):
            return respondAndClose(connection, problem: .badRequest(reason), version: head.version, requestID: requestID)
        case .failure(.unsupportedTransferCoding):
            return respondAndClose(connection, problem: .notImplemented, version: head.version, requestID: requestID)
        }
        let hasBody = framing != .none
        // Whether the connection is in fact kept is decided as the response is queued.
        var context = ResponseWriter.Context(version: head.version, isHead: head.method == "HEAD", keepAlive: head.wantsKeepAlive, requestID: requestID)
        let cors = shared.configuration.cors
        if cors.isEnabled { context.corsFields = cors.fields(origin: head.field("origin"), method: head.method.utf8) }
        if shared.configuration.requestObserver != nil {
            context.method = head.method
            context.startedAt = MonotonicClock.now()
            let forwarded = head.fieldValues("x-forwarded-for")
            if !forwarded.isEmpty { context.forwardedFor = forwarded.joined(separator: ",") }
        }

        if head.hasUnsupportedExpectation {
            return respond(connection, shared.response(to: .expectationFailed), context: context, closing: hasBody)
        }
        let target = RequestTarget.split(head.target)
        if cors.isEnabled, head.method.utf8.elementsEqual("OPTIONS".utf8), let requested = head.field("access-control-request-method"),
           case .options(let allowed) = shared.router.match(method: "OPTIONS", path: target.path) {
            context.corsFields = []
            let answer = cors.preflight(origin: head.field("origin"), requestedMethod: requested, allowed: allowed)
            return respond(connection, answer, context: context, closing: hasBody)
        }
        switch shared.router.match(method: head.method, path: target.path) {
        case .notFound:
            respond(connection, shared.response(to: .notFound), context: context, closing: hasBody)
        case .methodNotAllowed(let allowed):
            let response = shared.response(to: .methodNotAllowed, adding: [HTTPField(name: "Allow", value: allowed.joined(separator: ", "))])
            respond(connection, response, context: context, closing: hasBody)
        case .options(let allowed):
            let response = Response(status: 204, headers: [HTTPField(name: "Allow", value: allowed.joined(separator: ", "))])
            respond(connection, response, context: context, closing: hasBody)
        case .found(let route, let parameters):
            if shared.configuration.requestObserver != nil { context.route = route.pattern }
            // Refused from the head alone (a media type the route does not take) before
            // the body's size is judged: the client learns what to fix first.
            if let refusal = route.admit?(head) {
                return respond(connection, refusal, context: context, closing: hasBody)
            }
            var pending = Connection.PendingRequest(
                head: head, target: target, route: route, parameters: parameters, context: context, remaining: 0
            )
            switch framing {
            case .none:
                return dispatch(pending, on: connection)
            case .contentLength(let length):
                guard length <= route.bodyLimit else {
                    return respond(connection, shared.response(to: .payloadTooLarge), context: context, closing: true)
                }
                pending.remaining = length
                if route.receiveBody == nil { pending.body.reserveCapacity(length) }
            case .chunked:
                pending.chunked = ChunkedDecoder(limit: route.bodyLimit)
            }
            if let makeReceiver = route.receiveBody {
                do {
                    pending.receiver = try makeReceiver(head)
                } catch {
                    return respond(connection, errorResponse(error, to: pending, on: connection), context: context, closing: true)
                }
            }
            // Ask for the body only once the request is known to be acceptable (RFC 9110 §10.1.1).
            if head.expectsContinue, head.version == .http1_1, connection.unreadCount == 0 {
                connection.output.append(contentsOf: ResponseWriter.continueResponse)
            }
            connection.pending = pending
            handle(.bodyBegan, on: connection)
        }
    }

    /// Moves buffered body bytes into the pending request, or hands them to its receiver;
    /// true once the body is complete. A whole body grows in place inside the connection,
    /// so it is never copied per read.
    func readBody(_ connection: Connection) -> Bool {
        guard var decoder = connection.pending?.chunked else {
            let take = min(connection.pending!.remaining, connection.unreadCount)
            let piece = connection.input[connection.inputStart..<connection.inputStart + take]
            if connection.pending!.receiver != nil {
                guard hand(piece, to: connection) else { return false }
            } else {
                connection.pending!.body.append(contentsOf: piece)
            }
            connection.pending!.remaining -= take
            handle(.bodyReceived(take), on: connection)
            connection.consumeInput(take)
            guard connection.pending!.remaining == 0 else { return waitForBody(connection) }
            return finishReceiving(connection)
        }
        let result = connection.input.withUnsafeBufferPointer { buffer in
            decoder.decode(UnsafeBufferPointer(rebasing: buffer[connection.inputStart...]), into: &connection.pending!.body)
        }
        connection.pending!.chunked = decoder
        let consumed: Int?
        switch result {
        case .needMore:
            consumed = nil
        case .done(let count):
            consumed = count
        case .failure(let failure):
            let pending = connection.pending!
            connection.pending = nil
            let problem: Problem = switch failure {
            case .tooLarge: .payloadTooLarge
            case .malformed(let reason): .badRequest(reason)
            }
            respondAndClose(connection, problem: problem, version: pending.head.version, requestID: pending.context.requestID)
            return false
        }
        if connection.pending!.receiver != nil {
            // The decoder's output is handed on at once, so it never holds more than a read.
            var decoded: [UInt8] = []
            swap(&decoded, &connection.pending!.body)
            guard hand(decoded[...], to: connection) else { return false }
            decoded.removeAll(keepingCapacity: true)
            connection.pending!.body = decoded
        }
        guard let consumed else {
            handle(.bodyReceived(connection.unreadCount), on: connection)
            connection.consumeInput(connection.unreadCount)
            return waitForBody(connection)
        }
        connection.consumeInput(consumed)
        return finishReceiving(connection)
    }

    /// Gives a piece of the body to the pending request's receiver; false (and the error's
    /// response, closing the connection) when it refuses it.
    private func hand(_ piece: ArraySlice<UInt8>, to connection: Connection) -> Bool {
        guard !piece.isEmpty else { return true }
        do {
            try piece.withUnsafeBytes { try connection.pending!.receiver!.receive($0) }
            return true
        } catch {
            failReceiving(connection, error)
            return false
        }
    }

    /// The body is complete; a receiver is told so before the handler runs.
    private func finishReceiving(_ connection: Connection) -> Bool {
        do {
            try connection.pending!.receiver?.finish()
            return true
        } catch {
            failReceiving(connection, error)
            return false
        }
    }

    private func failReceiving(_ connection: Connection, _ error: any Error) {
        let pending = connection.pending!
        connection.pending = nil
        respond(connection, errorResponse(error, to: pending, on: connection), context: pending.context, closing: true)
    }

    /// The error responder's answer to a request that failed before its handler ran.
    private func errorResponse(_ error: any Error, to pending: Connection.PendingRequest, on connection: Connection) -> Response {
        shared.errorResponder(error, request(for: pending, on: connection))
    }

    /// The body is incomplete: wait for more (its deadline follows its bytes, see
    /// `ConnectionPolicy`), or give up if the peer has stopped sending.
    func waitForBody(_ connection: Connection) -> Bool {
        handle(.inputExhausted, on: connection)
        return false
    }

    func dispatch(_ pending: Connection.PendingRequest, on connection: Connection) {
        let request = request(for: pending, on: connection)
        let context = pending.context
        switch pending.route.handler {
        case .inline(let handler):
            let response: Response
            do {
                response = try handler(request)
            } catch {
                response = shared.errorResponder(error, request)
            }
            respond(connection, response, context: context, closing: false)
        case .deferred(let handler):
            connection.responder = .handler(context)
            handle(.responseUnderway, on: connection)
            handler(request, ResponseSink(loop: self, fd: connection.fd, connectionID: connection.id))
        }
    }

    private func request(for pending: Connection.PendingRequest, on connection: Connection) -> Request {
        var request = Request(
            head: pending.head, target: pending.target, body: pending.body, pathParameters: pending.parameters,
            requestID: pending.context.requestID, remoteAddress: connection.remoteAddress, eventLoopIndex: index
        )
        request.receivedBody = pending.receiver
        return request
    }
}
