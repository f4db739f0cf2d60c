import Foundation

/// The token a call was sent with, and the session it belonged to: `epoch` changes when
/// another session (or none) takes over, never on a refresh, so a call begun for one user
/// never goes on as another.
struct Credential: Sendable {
    let accessToken: String
    let epoch: Int
}

/// The signed-in state of one `Latchkey`: the session, its token store, the refresh in
/// flight and the auth-state listeners. An actor, so every change to the session happens
/// in one place, one at a time.
actor SessionState {
    let transport: HTTPTransport
    let configuration: LatchkeyConfiguration
    private let store: any TokenStore
    private(set) var session: StoredSession?
    /// Whether the store has been read (or a sign-in or sign-out made reading it moot).
    private var loaded = false
    private(set) var epoch = 0
    /// The refresh every caller waits for (see SessionState+Refresh.swift).
    var inFlightRefresh: (id: UUID, task: Task<StoredSession, any Error>)?
    private var listeners: [UUID: AsyncStream<User?>.Continuation] = [:]
    /// What listeners heard last; `.none` before anything was published.
    private var published: User??
    /// Store writes run one after another, in the order of the changes they record.
    private var lastWrite: Task<Void, Never>?
    /// The last write failed (a locked keychain): write again on the next call.
    private var unsaved = false

    init(store: any TokenStore, transport: HTTPTransport, configuration: LatchkeyConfiguration) {
        self.store = store
        self.transport = transport
        self.configuration = configuration
    }

    /// Reads the store once, without the network. A store that cannot be read now leaves
    /// the state unknown (signed out to the app) and is asked again next time, never cleared.
    func loadIfNeeded() async {
        guard !loaded else { return }
        let stored: StoredSession?
        do {
            stored = try await store.load()
        } catch {
            return  // unknown for now: asked again on the next call
        }
        guard !loaded else { return }  // a sign-in or sign-out came first
        (session, loaded) = (stored, true)
        publish()
    }

    var currentUser: User? {
        get async {
            await loadIfNeeded()
            return session?.user
        }
    }

    /// Installs the session of a sign-in (signup, login, a password change's new pair).
    @discardableResult
    func signIn(with pair: TokenPair, sentAt: Date) async -> User {
        epoch += 1
        inFlightRefresh = nil  // a refresh of the session before belongs to it alone
        await install(pair, sentAt: sentAt)
        return pair.user
    }

    /// Installs a pair (of a sign-in, or a refresh of the current session) and returns once
    /// the store has it: a token the app goes on to use is one a relaunch finds.
    @discardableResult
    func install(_ pair: TokenPair, sentAt: Date) async -> StoredSession {
        if let deviceToken = pair.deviceToken { try? await store.saveDeviceToken(deviceToken) }
        let installed = StoredSession(pair, sentAt: sentAt, refreshAhead: configuration.refreshAhead)
        (session, loaded) = (installed, true)
        publish()
        persist()
        await lastWrite?.value
        return installed
    }

    /// Records a newer copy of the user (profile change, reload) for the session of `epoch`.
    func update(_ user: User, epoch: Int) async {
        guard epoch == self.epoch, var session else { return }
        session.user = user
        self.session = session
        publish()
        persist()
        await lastWrite?.value
    }

    /// The device token the store kept, if it can be read now (a login goes without it otherwise).
    func deviceToken() async -> String? {
        (try? await store.loadDeviceToken()) ?? nil
    }

    /// Forgets the session here: the store is cleared and listeners hear nil.
    func signOutLocally() async {
        epoch += 1
        inFlightRefresh = nil
        (session, loaded) = (nil, true)
        publish()
        persist()
        await lastWrite?.value
    }

    /// The server ended the session `epoch` used: sign out, unless another session has
    /// taken its place since.
    func sessionEnded(epoch: Int) async {
        guard epoch == self.epoch, session != nil else { return }
        await signOutLocally()
    }

    /// Writes the current session (or its absence) after every earlier write.
    func persist() {
        let (previous, snapshot, target) = (lastWrite, session, store)
        unsaved = false
        lastWrite = Task {
            await previous?.value
            do {
                if let snapshot { try await target.save(snapshot) } else { try await target.clear() }
            } catch {
                // The task runs on this actor, so the flag is set in order with the writes.
                self.writeFailed()
            }
        }
    }

    private func writeFailed() { unsaved = true }

    /// Writes again what a failed write left unsaved.
    func persistIfUnsaved() {
        if unsaved { persist() }
    }

    // MARK: Listeners

    func addListener(_ id: UUID, _ continuation: AsyncStream<User?>.Continuation) async {
        await loadIfNeeded()
        listeners[id] = continuation
        continuation.yield(session?.user)
    }

    func removeListener(_ id: UUID) {
        listeners[id] = nil
    }

    /// Tells every listener the user, when it differs from what they heard last.
    private func publish() {
        let user = session?.user
        if case .some(let last) = published, last == user { return }
        published = .some(user)
        for (id, listener) in listeners {
            if case .terminated = listener.yield(user) { listeners[id] = nil }
        }
    }
}
