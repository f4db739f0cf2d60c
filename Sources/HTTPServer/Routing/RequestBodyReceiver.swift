/// Takes a request body piece by piece as it arrives, instead of whole in memory: a route
/// that writes a large body (a picture) to disk. Made from the head once the route has
/// admitted it and its size is within the route's limit; fed every piece in order on the
/// event loop; finished when the body is complete; then handed to the handler as
/// `Request.receivedBody`. An error thrown on the way becomes the request's response, and
/// the connection closes (the rest of the body is not read).
///
/// Touched by one thread at a time: the event loop while the body arrives, the handler after.
public protocol RequestBodyReceiver: AnyObject, Sendable {
    func receive(_ piece: UnsafeRawBufferPointer) throws
    /// The body is complete.
    func finish() throws
}
