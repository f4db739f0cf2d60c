#ifndef LATCHKEY_COPENSSL_SHIM_H
#define LATCHKEY_COPENSSL_SHIM_H

// The OpenSSL surface Latchkey uses: libcrypto for AuthCrypto (PBKDF2, HMAC, SHA-256,
// random; scrypt and AES-256-CTR for imported Firebase hashes) and libssl for the SMTP client's TLS. Functions import into Swift as they are;
// the `static inline` wrappers below exist only for macros Swift cannot call.
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/// SNI: the name the client asks for (SSL_set_tlsext_host_name is a macro).
static inline int latchkey_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// No protocol older than TLS 1.2 (SSL_CTX_set_min_proto_version is a macro).
static inline int latchkey_ssl_ctx_require_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

#endif
