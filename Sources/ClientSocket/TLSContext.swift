import COpenSSL

/// The client side of TLS, set up once and shared by every connection: TLS 1.2 or newer,
/// and the server's certificate verified against the system's trust store or, when
/// given, a CA file of the operator's (a private mail relay's own CA, a test's).
public final class TLSContext: @unchecked Sendable {
    // SSL_CTX is safe to share between threads once configured; nothing changes it later.
    let context: OpaquePointer

    /// `addingToSystemStore`: the CA file's CAs are trusted besides the system's, not
    /// instead of them (outbound HTTPS to public providers with a private CA added).
    public init(caFile: String? = nil, addingToSystemStore: Bool = false) throws(SocketError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw .tls("cannot create a TLS context: \(openSSLErrors())") }
        self.context = context
        guard latchkey_ssl_ctx_require_tls12(context) == 1 else { throw .tls("cannot require TLS 1.2: \(openSSLErrors())") }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        if caFile == nil || addingToSystemStore {
            guard SSL_CTX_set_default_verify_paths(context) == 1 else { throw .tls("cannot load the system's trust store: \(openSSLErrors())") }
        }
        if let caFile {
            guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
                throw .tls("cannot read the CA file \(caFile): \(openSSLErrors())")
            }
        }
    }

    deinit {
        SSL_CTX_free(context)
    }
}

/// OpenSSL's queued errors for this thread, as text, and the queue emptied.
func openSSLErrors() -> String {
    var messages: [String] = []
    var code = ERR_get_error()
    while code != 0, messages.count < 8 {
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        messages.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        code = ERR_get_error()
    }
    ERR_clear_error()
    return messages.isEmpty ? "no detail" : messages.joined(separator: "; ")
}
