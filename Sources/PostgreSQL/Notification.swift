/// One NOTIFY received on a channel this connection listens to.
public struct Notification: Sendable, Equatable {
    public let channel: String
    public let payload: String
    /// The server process of the session that sent it; equal to the listener's own
    /// `backendProcessID` when the connection notified itself.
    public let processID: Int32

    public init(channel: String, payload: String, processID: Int32) {
        self.channel = channel
        self.payload = payload
        self.processID = processID
    }
}
