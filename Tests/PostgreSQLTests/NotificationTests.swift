import PostgreSQL
import Testing

extension PostgreSQLTests {
    @Suite struct NotificationTests {
        let schema: TestSchema

        init() throws {
            schema = try TestSchema()
        }

        @Test func notifyOnOneConnectionReachesAListenerOnAnother() throws {
            let listener = try schema.connect()
            let sender = try schema.connect()
            let channel = "jobs \(schema.name)"   // a space and mixed content: the name is quoted
            try listener.listen(channel)
            try sender.notify(channel: channel, payload: "it's \"done\" ?")
            let received = try listener.waitForNotifications(timeoutMilliseconds: 5_000)
            #expect(received == [Notification(channel: channel, payload: "it's \"done\" ?", processID: sender.backendProcessID)])
            #expect(try listener.notifications() == [])
        }

        @Test func waitingWithNothingSentTimesOut() throws {
            let listener = try schema.connect()
            try listener.listen("quiet_\(schema.name)")
            let clock = ContinuousClock()
            let started = clock.now
            let received = try listener.waitForNotifications(timeoutMilliseconds: 300)
            let elapsed = clock.now - started
            #expect(received == [])
            #expect(elapsed >= .milliseconds(290))
            #expect(elapsed < .seconds(3))
        }

        @Test func notifyInATransactionArrivesAtCommitOnly() throws {
            let listener = try schema.connect()
            let sender = try schema.connect()
            let channel = "tx_\(schema.name)"
            try listener.listen(channel)
            try sender.transaction { sender in
                try sender.notify(channel: channel, payload: "first")
                #expect(try listener.waitForNotifications(timeoutMilliseconds: 200) == [])
            }
            #expect(try listener.waitForNotifications(timeoutMilliseconds: 5_000).map(\.payload) == ["first"])
            struct Abort: Error {}
            _ = try? sender.transaction { sender in
                try sender.notify(channel: channel, payload: "rolled back")
                throw Abort()
            }
            try sender.notify(channel: channel, payload: "second")
            #expect(try listener.waitForNotifications(timeoutMilliseconds: 5_000).map(\.payload) == ["second"])
        }

        /// A ping is a round trip: a notification that arrives meanwhile is kept for
        /// `notifications()`, not swallowed, and the connection goes on working.
        @Test func aPingIsAnsweredAndKeepsWhatArrivedMeanwhile() throws {
            let listener = try schema.connect()
            let sender = try schema.connect()
            let channel = "ping_\(schema.name)"
            try listener.listen(channel)
            try sender.notify(channel: channel, payload: "during")
            try listener.ping(timeoutMilliseconds: 5_000)
            #expect(try listener.waitForNotifications(timeoutMilliseconds: 5_000).map(\.payload) == ["during"])
            try listener.ping(timeoutMilliseconds: 5_000)
        }

        @Test func socketDescriptorIsOpen() throws {
            let db = try schema.connect()
            #expect(db.socketDescriptor >= 0)
        }
    }
}
