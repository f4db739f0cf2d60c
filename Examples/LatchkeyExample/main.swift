// latchkey-example: a command-line program built on LatchkeyClient (README, "Swift client").
//
//   latchkey-example [--server URL] [--token-file PATH] COMMAND
//
//   signup EMAIL DISPLAY_NAME   create an account and stay signed in
//   login EMAIL                 sign in
//   whoami                      the user restored from the token file (no network), then the server's copy
//   presence online|away|offline
//   watch [USER_ID ...]         print presence changes as they happen (yourself when no ids); Ctrl-C stops
//   sessions                    the devices signed in to the account
//   logout                      end this session
//
// The server is --server, else $LATCHKEY_URL, else http://127.0.0.1:8080. The session is
// kept in --token-file, else ~/.config/latchkey-example/session.json (Application Support
// on macOS), mode 0600, so the next run is still signed in. Passwords come from
// $LATCHKEY_PASSWORD, else the terminal (not echoed), else a line of standard input.
import Foundation
import LatchkeyClient

var arguments = Array(CommandLine.arguments.dropFirst())

/// Removes `--name VALUE` from the arguments and returns VALUE.
@MainActor
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(index...index + 1) }
    return arguments[index + 1]
}

/// Writes a line at once: print's buffer would hold `watch`'s lines back when the output is
/// a pipe.
func say(_ parts: Any...) {
    FileHandle.standardOutput.write(Data((parts.map { "\($0)" }.joined(separator: " ") + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

func readPassword() -> String {
    if let password = ProcessInfo.processInfo.environment["LATCHKEY_PASSWORD"] { return password }
    if isatty(STDIN_FILENO) != 0, let typed = getpass("Password: ") { return String(cString: typed) }
    guard let line = readLine() else { fail("no password given") }
    return line
}

let serverText = option("--server") ?? ProcessInfo.processInfo.environment["LATCHKEY_URL"] ?? "http://127.0.0.1:8080"
guard let server = URL(string: serverText) else { fail("not a URL: \(serverText)") }
let store = option("--token-file").map { FileTokenStore(url: URL(fileURLWithPath: $0)) }
    ?? FileTokenStore.inUserConfiguration(appName: "latchkey-example")
var configuration = LatchkeyConfiguration()
configuration.userAgent = "latchkey-example/0.1"
let latchkey = Latchkey(baseURL: server, tokenStore: store, configuration: configuration)

func describe(_ user: User) -> String {
    "\(user.displayName ?? "(no display name)") <\(user.email ?? "no address")>\(user.emailVerified ? "" : " (unverified)") id \(user.id)"
}

@MainActor
func run(_ command: String, _ operands: [String]) async throws {
    switch (command, operands.count) {
    case ("signup", 2):
        say("signed up as", describe(try await latchkey.signUp(email: operands[0], password: readPassword(), displayName: operands[1])))
    case ("login", 1):
        say("signed in as", describe(try await latchkey.signIn(email: operands[0], password: readPassword())))
    case ("whoami", 0):
        guard let stored = await latchkey.currentUser else { fail("not signed in") }
        say("stored:", describe(stored))
        say("server:", describe(try await latchkey.reloadUser()))
    case ("presence", 1):
        guard let status = PresenceStatus(rawValue: operands[0]) else { fail("online, away or offline") }
        let presence = try await latchkey.setPresence(status)
        say(presence.status.rawValue, "since", presence.lastSeen)
    case ("watch", _):
        guard let me = await latchkey.currentUser else { fail("not signed in") }
        let ids = operands.isEmpty ? [me.id] : operands
        say("watching \(ids.count) user(s); you are online while this runs")
        for try await presence in latchkey.presenceUpdates(for: ids) {
            say(presence.lastSeen, presence.userId, presence.status.rawValue)
        }
    case ("sessions", 0):
        for session in try await latchkey.sessions() {
            say(session.id, session.lastUsedAt, session.userAgent ?? "-", session.current ? "(this one)" : "")
        }
    case ("logout", 0):
        let confirmed = await latchkey.signOut()
        say(confirmed ? "signed out" : "signed out here; the server could not be told")
    default:
        fail("usage: latchkey-example [--server URL] [--token-file PATH] signup EMAIL NAME | login EMAIL | whoami | presence STATUS | watch [ID...] | sessions | logout")
    }
}

do {
    try await run(arguments.first ?? "", Array(arguments.dropFirst()))
} catch let error as LatchkeyError {
    var lines = [error.localizedDescription]
    // A refusal of several fields (a signup form) names each with its own message.
    for field in error.problem?.fields ?? [] {
        if let detail = error.detail(for: field) { lines.append("  \(field): \(detail)") }
    }
    if let seconds = error.retryAfter { lines.append("  try again in \(seconds) s") }
    fail(lines.joined(separator: "\n"))
}
