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

// SHA-256's state as a plain value (AuthCrypto's SHA256State): an HMAC key keeps the state
// after each of its pads and every MAC continues from a copy, which costs a memberwise copy
// here and an allocation per copy through EVP_MD_CTX_copy_ex. These functions are
// deprecated since OpenSSL 3.0 in favour of EVP but still part of 3.x and 4.0; the
// wrappers keep that in this one place, and run the same SHA-256 code as EVP does.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
static inline int latchkey_sha256_init(SHA256_CTX *context) {
    return SHA256_Init(context);
}

static inline int latchkey_sha256_update(SHA256_CTX *context, const void *data, size_t length) {
    return SHA256_Update(context, data, length);
}

static inline int latchkey_sha256_final(unsigned char *digest, SHA256_CTX *context) {
    return SHA256_Final(digest, context);
}
#pragma clang diagnostic pop

// WebAuthn signatures (AuthCrypto's COSE keys and attestation certificates): public keys
// built from their parameters, ECDSA's DER form, X.509 for packed attestation's x5c.
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

// P-256 private keys (AuthCrypto's P256PrivateKey): PEM files in and out through a memory BIO.
#include <openssl/bio.h>
#include <openssl/pem.h>

/// EVP_PKEY_fromdata's selection for a public key (EVP_PKEY_PUBLIC_KEY is a macro of macros).
static inline int latchkey_evp_pkey_public_key_selection(void) {
    return EVP_PKEY_PUBLIC_KEY;
}

#endif
