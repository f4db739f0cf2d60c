import COpenSSL
import Glibc

/// TLS over a connected non-blocking socket: a handshake that verifies the certificate
/// chain and that the certificate names `host` (DNS name or IP address), then reads and
/// writes that wait with `poll` until the step's deadline.
final class TLSStream {
    private let ssl: OpaquePointer
    private let descriptor: Int32

    init(context: TLSContext, descriptor: Int32, host: String, deadline: Deadline) throws(SocketError) {
        ERR_clear_error()
        guard let ssl = SSL_new(context.context) else { throw .tls("cannot start a TLS session: \(openSSLErrors())") }
        self.ssl = ssl
        self.descriptor = descriptor
        guard SSL_set_fd(ssl, descriptor) == 1 else { throw .tls("cannot attach TLS: \(openSSLErrors())") }
        if Self.isIPAddress(host) {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 else { throw .tls("cannot check the address \(host)") }
        } else {
            guard latchkey_ssl_set_server_name(ssl, host) == 1, SSL_set1_host(ssl, host) == 1 else {
                throw .tls("cannot check the host name \(host)")
            }
        }
        try perform(step: "the TLS handshake", deadline: deadline) { SSL_connect(ssl) }
    }

    deinit {
        // No close_notify: the dialogue has ended (SMTP's QUIT, an HTTP answer read to its
        // end), or failed; waiting for the peer's answer would only add a way to hang.
        SSL_free(ssl)
    }

    func read(into chunk: inout [UInt8], step: String, deadline: Deadline) throws(SocketError) -> Int {
        let capacity = Int32(chunk.count)
        return try perform(step: step, deadline: deadline) { chunk.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, capacity) } }
    }

    func write(_ bytes: ArraySlice<UInt8>, step: String, deadline: Deadline) throws(SocketError) -> Int {
        try perform(step: step, deadline: deadline) { bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) } }
    }

    /// Runs `operation` until it makes progress, waiting on the socket as OpenSSL asks.
    /// Returns its positive result, or 0 when the peer closed TLS cleanly.
    @discardableResult
    private func perform(step: String, deadline: Deadline, _ operation: () -> Int32) throws(SocketError) -> Int {
        for _ in 0..<100_000 {
            ERR_clear_error()
            let result = operation()
            if result > 0 { return Int(result) }
            switch SSL_get_error(ssl, result) {
            case SSL_ERROR_WANT_READ: try ClientSocket.wait(descriptor, for: Int16(POLLIN), until: deadline, step: step)
            case SSL_ERROR_WANT_WRITE: try ClientSocket.wait(descriptor, for: Int16(POLLOUT), until: deadline, step: step)
            case SSL_ERROR_ZERO_RETURN: return 0
            case SSL_ERROR_SYSCALL where errno == EINTR: continue
            default:
                let verification = SSL_get_verify_result(ssl)
                if verification != X509_V_OK {
                    throw .tls("the server's certificate is not trusted: \(String(cString: X509_verify_cert_error_string(verification)))")
                }
                throw .tls("\(step): \(openSSLErrors())")
            }
        }
        throw .timedOut(step)
    }

    private static func isIPAddress(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }
}
