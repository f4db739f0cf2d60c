#ifndef LATCHKEY_COPENSSL_SHIM_H
#define LATCHKEY_COPENSSL_SHIM_H

// The libcrypto surface AuthCrypto uses. Every function below imports cleanly into
// Swift, so no wrappers are needed; add a `static inline` one here only for a macro
// or variadic function Swift cannot call.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#endif
