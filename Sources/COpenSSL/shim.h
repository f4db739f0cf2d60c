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

// WebAuthn signatures (AuthCrypto's COSE keys and attestation certificates): public keys
// built from their parameters, ECDSA's DER form, X.509 for packed attestation's x5c.
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

/// EVP_PKEY_fromdata's selection for a public key (EVP_PKEY_PUBLIC_KEY is a macro of macros).
static inline int latchkey_evp_pkey_public_key_selection(void) {
    return EVP_PKEY_PUBLIC_KEY;
}

#endif
