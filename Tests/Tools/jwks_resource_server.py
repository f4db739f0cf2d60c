"""An app's own backend verifying Latchkey access tokens as the README shows it: PyJWT's
PyJWKClient fetches the public keys from the JWKS URL, and nothing secret is known here.
Prints one JSON line per token: {"sub": ..., "kid": ...} when it verifies, else
{"error": the exception's class name}.

  jwks_resource_server.py JWKS_URL ISSUER AUDIENCE TOKEN...
"""
import json
import sys

import jwt


def main():
    jwks_url, issuer, audience, tokens = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    # A fresh client per run: what a backend sees after its cache of the key set expired.
    keys = jwt.PyJWKClient(jwks_url, cache_keys=False, cache_jwk_set=False, timeout=10)
    for token in tokens:
        try:
            key = keys.get_signing_key_from_jwt(token)
            claims = jwt.decode(token, key.key, algorithms=["ES256"], issuer=issuer, audience=audience)
            print(json.dumps({"sub": claims["sub"], "kid": jwt.get_unverified_header(token)["kid"]}))
        except Exception as error:  # the verdict is the output; the caller names the one it expects
            print(json.dumps({"error": type(error).__name__}))


if __name__ == "__main__":
    main()
