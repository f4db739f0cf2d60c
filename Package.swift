// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "latchkey",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "latchkey", targets: ["latchkey"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "SQLite", targets: ["SQLite"]),
        .library(name: "PostgreSQL", targets: ["PostgreSQL"]),
        // The client apps link: Foundation only, for iOS, macOS and Linux.
        .library(name: "LatchkeyClient", targets: ["LatchkeyClient"]),
        .executable(name: "latchkey-example", targets: ["latchkey-example"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Headers only: libpq is loaded at run time (see its shim.h), not linked.
        .systemLibrary(
            name: "CPostgreSQL",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(name: "CLinuxShims"),
        // General-purpose leaf: the one way this server starts a thread of its own, and the
        // pools built on it (bounded, batching); it knows nothing of the domain.
        .target(name: "Threads"),
        .target(name: "HTTPServer", dependencies: ["CLinuxShims", "Threads", "FlatJSON", .product(name: "Logging", package: "swift-log")]),
        // The one value a parameter binds and a column reads, shared by both database
        // wrappers, so bindings are built the same way for either.
        .target(name: "SQLValues"),
        // Numbered migrations, their checksums, the checks before applying them and the
        // records table: shared by both database wrappers, so a migration reads the same on
        // either and each wrapper gives only what differs.
        .target(name: "SchemaMigrations", dependencies: ["SQLValues"]),
        .target(name: "SQLite", dependencies: ["CSQLite", "SchemaMigrations", "SQLValues"]),
        // The PostgreSQL driver, shaped like SQLite's wrapper so store code reads the same
        // against either; independent of it (it shares only SQLValues and SchemaMigrations).
        .target(name: "PostgreSQL", dependencies: ["CPostgreSQL", "SchemaMigrations", "SQLValues"]),
        // A general-purpose leaf: JWT claims (AuthCrypto) and request bodies (LatchkeyAPI)
        // share one reader and one string escaper.
        .target(name: "FlatJSON"),
        // A general-purpose leaf: JSON read in pieces from a file, for exports too large
        // to hold (the accounts of `latchkey import firebase`).
        .target(name: "JSONStream"),
        // A general-purpose leaf: a bounded reader of the CBOR that WebAuthn uses (attestation
        // objects, COSE keys); AuthCrypto reads COSE keys with it.
        .target(name: "CBOR"),
        .target(name: "AuthCrypto", dependencies: ["COpenSSL", "FlatJSON", "CBOR"]),
        // General-purpose leaf: an outbound TCP connection with deadlines on every step, and
        // TLS with the server's certificate and name verified.
        .target(name: "ClientSocket", dependencies: ["COpenSSL"]),
        // Outbound HTTPS for the sign-in providers: one bounded request per connection.
        .target(name: "HTTPSClient", dependencies: ["ClientSocket"]),
        // Mail submission over SMTP with STARTTLS or implicit TLS.
        .target(name: "SMTP", dependencies: ["ClientSocket", "COpenSSL"]),
        .target(name: "LatchkeyCore", dependencies: ["SQLite", "PostgreSQL", "SchemaMigrations", "SQLValues", "AuthCrypto", "CBOR", "FlatJSON", "JSONStream", "Threads"]),
        .target(
            name: "LatchkeyAPI",
            dependencies: ["HTTPServer", "LatchkeyCore", "FlatJSON", "Threads", .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "latchkey",
            dependencies: [
                "LatchkeyAPI", "LatchkeyCore", "HTTPServer", "AuthCrypto", "SQLite", "SchemaMigrations", "SMTP", "HTTPSClient", "ClientSocket",
                "FlatJSON", "Threads",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The Swift client of the REST contract (docs/api.md); it shares no code with the
        // server, so an app never links the server's C libraries.
        .target(name: "LatchkeyClient"),
        // Passkey sign-ins with native clients, for bench/run.
        .executableTarget(name: "latchkey-passkey-load", dependencies: ["AuthCrypto", "COpenSSL", "Threads"], path: "bench/PasskeyLoad"),
        // What a TOTP check costs beside a password hash, for bench/run.
        .executableTarget(name: "latchkey-microbench", dependencies: ["LatchkeyCore", "AuthCrypto"], path: "bench/Microbench"),
        // A command-line program built on the client (README, "Swift client").
        .executableTarget(name: "latchkey-example", dependencies: ["LatchkeyClient"], path: "Examples/LatchkeyExample"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Threads", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "SchemaMigrations", "SQLValues"]),
        .testTarget(name: "PostgreSQLTests", dependencies: ["PostgreSQL", "SchemaMigrations", "SQLValues", "TestSupport"]),
        .testTarget(name: "FlatJSONTests", dependencies: ["FlatJSON"]),
        .testTarget(name: "JSONStreamTests", dependencies: ["JSONStream"]),
        .testTarget(name: "CBORTests", dependencies: ["CBOR", "TestSupport"]),
        .testTarget(name: "ThreadsTests", dependencies: ["Threads"]),
        .testTarget(name: "SMTPTests", dependencies: ["SMTP", "Threads"]),
        .testTarget(name: "HTTPSClientTests", dependencies: ["HTTPSClient", "ClientSocket", "TestSupport"]),
        .testTarget(name: "AuthCryptoTests", dependencies: ["AuthCrypto", "CBOR", "FlatJSON", "TestSupport"]),
        // What the test targets share: the real binary as a process, HTTP calls, a mail sink, and a
        // throwaway PostgreSQL cluster (scripts/postgres) with a fresh database per test.
        .target(name: "TestSupport", dependencies: ["PostgreSQL", "CBOR"], path: "Tests/TestSupport"),
        .testTarget(name: "LatchkeyCoreTests", dependencies: ["LatchkeyCore", "CLinuxShims", "SQLite", "PostgreSQL", "SchemaMigrations", "SQLValues", "TestSupport"]),
        .testTarget(name: "LatchkeyClientTests", dependencies: ["LatchkeyClient", "TestSupport"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TestSupport", "SQLite", "PostgreSQL", "SQLValues", "AuthCrypto", "LatchkeyCore", "LatchkeyAPI", "LatchkeyClient", "latchkey",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
