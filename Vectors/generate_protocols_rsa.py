"""Salt Edge and CM vectors for Vectors/protocols (docs/protocols/saltedge-v2.md, docs/protocols/cm-authenticator.md), with
RSA keys assembled from seeded primes and every PKCS #1 v1.5 block decrypted by OpenSSL before
it is recorded. Called by generate_protocols.py."""

import base64
import hmac
import json
import math

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding as rsa_padding
from cryptography.hazmat.primitives.asymmetric import rsa

import generate as base
from generate_protocols import aes_cbc, b64, b64url, case, document, hx


# ---- Salt Edge (docs/protocols/saltedge-v2.md §3, §4, §5.2) ----

def seeded_rsa_key(label):
    r = base.rng(label)
    p, q = base.probable_prime(r, 1024), base.probable_prime(r, 1024)
    n, e = p * q, 65537
    lam = (p - 1) * (q - 1) // math.gcd(p - 1, q - 1)
    d = pow(e, -1, lam)
    numbers = rsa.RSAPrivateNumbers(p, q, d, rsa.rsa_crt_dmp1(d, p), rsa.rsa_crt_dmq1(d, q), rsa.rsa_crt_iqmp(p, q),
                                    rsa.RSAPublicNumbers(e, n))
    return numbers.private_key()


def pkcs1_encrypt(r, key, message):
    """RFC 8017 §7.2.1 with a seeded padding string; OpenSSL decrypts every block we record."""
    numbers = key.public_key().public_numbers()
    k = (numbers.n.bit_length() + 7) // 8
    ps = bytes(r.randrange(1, 256) for _ in range(k - 3 - len(message)))
    c = pow(int.from_bytes(b"\x00\x02" + ps + b"\x00" + message, "big"), numbers.e, numbers.n).to_bytes(k, "big")
    assert key.decrypt(c, rsa_padding.PKCS1v15()) == message
    return c


def ruby_base64(data):
    """Base64 with a LF after every 60 characters and at the end, as the server sends (§3.3)."""
    text = b64(data)
    return "".join(text[i:i + 60] + "\n" for i in range(0, len(text), 60))


def private_pem(key, pkcs8):
    fmt = serialization.PrivateFormat.PKCS8 if pkcs8 else serialization.PrivateFormat.TraditionalOpenSSL
    return key.private_bytes(serialization.Encoding.PEM, fmt, serialization.NoEncryption()).decode()


def saltedge():
    key, other = seeded_rsa_key("protocols/saltedge-connection-key"), seeded_rsa_key("protocols/saltedge-other-key")
    pem, pem1 = private_pem(key, True), private_pem(key, False)
    r = base.rng("protocols/saltedge")
    bundles, tokens, jws = [], [], []
    for i in range(16):
        aes_key, iv = r.randbytes(32), r.randbytes(16)
        if i == 0:
            aes_key = bytes(32)  # zero bytes are fine for the protocol (§3.2: do not copy the iOS check)
        payload = json.dumps({"title": "Payment %d" % i, "description": {"text": "Pay %d.%02d EUR" % (r.randrange(10 ** 4), r.randrange(100))},
                              "authorization_code": b64url(r.randbytes(32)), "created_at": "2026-01-01T10:00:00Z",
                              "expires_at": "2026-01-01T10:05:00Z", "n": "ü" * r.randrange(0, 40)},
                             separators=(",", ":"), ensure_ascii=False).encode()
        wrap = ruby_base64 if i % 2 == 0 else b64
        inputs = {"privateKey": pem if i % 3 else pem1, "key": wrap(pkcs1_encrypt(r, key, aes_key)), "iv": wrap(pkcs1_encrypt(r, key, iv)),
                  "data": wrap(aes_cbc(aes_key, iv, payload))}
        case(bundles, "authorization bundle, %d-byte payload, %s Base64" % (len(payload), "line-wrapped" if i % 2 == 0 else "one-line"),
             inputs, {"aesKey": hx(aes_key), "iv": hx(iv), "plaintext": hx(payload)})
    aes_key, iv, payload = r.randbytes(32), r.randbytes(16), b'{"title":"a payload of two blocks"}'
    good = {"privateKey": pem, "key": b64(pkcs1_encrypt(r, key, aes_key)), "iv": b64(pkcs1_encrypt(r, key, iv)), "data": b64(aes_cbc(aes_key, iv, payload))}
    bad_padding = bytearray(aes_cbc(aes_key, iv, payload))
    bad_padding[-17] ^= 0x01  # flips the last plaintext byte (the pad) through CBC
    for comment, change in [("AES key wrapped for another RSA key", {"key": b64(pkcs1_encrypt(r, other, aes_key))}),
                            ("IV wrapped for another RSA key", {"iv": b64(pkcs1_encrypt(r, other, iv))}),
                            ("wrapped AES key of 24 bytes", {"key": b64(pkcs1_encrypt(r, key, aes_key[:24]))}),
                            ("wrapped IV of 15 bytes", {"iv": b64(pkcs1_encrypt(r, key, iv[:15]))}),
                            ("bad CBC padding", {"data": b64(bytes(bad_padding))}),
                            ("data not a whole block", {"data": b64(aes_cbc(aes_key, iv, payload)[:-1])}),
                            ("empty data", {"data": ""}),
                            ("key block one byte short", {"key": b64(pkcs1_encrypt(r, key, aes_key)[1:])}),
                            ("key not Base64", {"key": "!!!!"})]:
        case(bundles, comment, dict(good, **change), {}, "invalid")

    # §4: access_token = Base64(RSA-PKCS#1 v1.5({"access_token":"<token>"})), one block or several.
    for i in range(10):
        token = b64url(r.randbytes(r.choice([16, 24, 32, 48])))
        message = json.dumps({"access_token": token}, separators=(",", ":")).encode()
        blocks = [message]
        if i >= 8:
            token = b64url(r.randbytes(240))  # longer than one block: iOS sends it in modulus-sized chunks
            message = json.dumps({"access_token": token}, separators=(",", ":")).encode()
            blocks = [message[:200], message[200:]]
        ciphertext = b"".join(pkcs1_encrypt(r, key, block) for block in blocks)
        text = [b64(ciphertext), b64url(ciphertext), base64.urlsafe_b64encode(ciphertext).decode(), ruby_base64(ciphertext)][i % 4]
        case(tokens, "access token, %d RSA block(s), %s" % (len(blocks), ["standard Base64", "URL-safe unpadded", "URL-safe padded",
                                                                          "line-wrapped"][i % 4]),
             {"privateKey": pem, "encryptedAccessToken": text}, {"accessToken": token})
    for comment, text in [("token for another RSA key", b64(pkcs1_encrypt(r, other, b'{"access_token":"abc"}'))),
                          ("not the token JSON", b64(pkcs1_encrypt(r, key, b'{"token":"abc"}'))),
                          ("empty access_token", b64(pkcs1_encrypt(r, key, b'{"access_token":""}'))),
                          ("ciphertext one byte short", b64(pkcs1_encrypt(r, key, b'{"access_token":"abc"}')[1:]))]:
        case(tokens, comment, {"privateKey": pem, "encryptedAccessToken": text}, {}, "invalid")

    # §5.2: detached RS256 JWS over the exact body bytes (OpenSSL signs; RS256 is deterministic).
    header = b64url(b'{"alg":"RS256"}')
    bodies = [b'{"data":{},"exp":1700000300}', b'{"data":{"push_token":"abc"},"exp":1700000300}',
              b'{\n  "data" : {\n\n  },\n  "exp" : 1700000300\n}', b"", b'{"data":{"action_id":"1","provider_id":"2"},"exp":%d}' % r.randrange(2 ** 31)]
    bodies += [r.randbytes(r.randrange(1, 400)) for _ in range(7)]
    for body in bodies:
        signing_input = (header + "." + b64url(body)).encode()
        signature = key.sign(signing_input, rsa_padding.PKCS1v15(), hashes.SHA256())
        case(jws, "RS256 over a %d-byte body" % len(body), {"privateKey": pem, "body": hx(body)},
             {"signingInput": hx(signing_input), "signature": header + ".." + b64url(signature)})
    signature = header + ".." + b64url(key.sign((header + "." + b64url(bodies[0])).encode(), rsa_padding.PKCS1v15(), hashes.SHA256()))
    for comment, body, sig in [("body changed after signing", bodies[0] + b" ", signature),
                               ("signature made with another key", bodies[0],
                                header + ".." + b64url(other.sign((header + "." + b64url(bodies[0])).encode(), rsa_padding.PKCS1v15(), hashes.SHA256()))),
                               ("payload segment not detached", bodies[0], signature.replace("..", "." + b64url(bodies[0]) + ".")),
                               ("header with typ", bodies[0], b64url(b'{"alg":"RS256","typ":"JWT"}') + signature[len(header):])]:
        case(jws, comment, {"privateKey": pem, "body": hx(body), "signature": sig}, {}, "invalid")
    return {"protocols/saltedge-bundle.json": document("SALTEDGE-BUNDLE", bundles),
            "protocols/saltedge-access-token.json": document("SALTEDGE-ACCESS-TOKEN", tokens),
            "protocols/saltedge-jws.json": document("SALTEDGE-JWS", jws)}


# ---- CM Authenticator (docs/protocols/cm-authenticator.md §3.1, §5, §6) ----

def compact(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def cm():
    r = base.rng("protocols/cm")
    tokens, pins, qr = [], [], []
    secrets = ["s3cr3t", "ünïcödé-sécret", b64(r.randbytes(24)), "a" * 100, "with,comma and space"]
    for i in range(20):
        secret = secrets[i % len(secrets)] if i < 10 else b64url(r.randbytes(r.randrange(1, 64)))
        now = r.randrange(10 ** 9, 2 * 10 ** 9)
        style = "android" if i % 4 else "ios"
        auth_id = "%08x-%04x-4%03x-8%03x-%012x" % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(12), r.getrandbits(12), r.getrandbits(48)) \
            if i % 3 == 1 else None
        body = [None, b"", b'{"auth_status":"approved"}', b'{"auth_status":"denied"}', r.randbytes(40)][i % 5]
        key = secret.encode()
        if style == "ios":
            header, claims = {"alg": "HS256", "typ": "JWT"}, [("nbf", now), ("iat", now), ("exp", now + 60)]
        else:
            header = {"alg": "HS256"}
            claims = ([("auth_id", auth_id)] if auth_id else []) + [("iat", now), ("nbf", now), ("exp", now + 60)]
            if body:
                claims.append(("sig", hmac.new(key, body, "sha256").hexdigest()))
        signing_input = b64url(compact(header)) + "." + b64url(compact(dict(claims)))
        jwt = signing_input + "." + b64url(hmac.new(key, signing_input.encode(), "sha256").digest())
        inputs = {"secret": secret, "now": now, "style": style}
        if auth_id:
            inputs["authId"] = auth_id
        if body is not None:
            inputs["body"] = hx(body)
        case(tokens, "%s token%s%s" % (style, ", auth_id" if auth_id and style == "android" else "",
                                       ", sig over %d bytes" % len(body) if body and style == "android" else ""), inputs, {"jwt": jwt})

    # §6: the signed certificate list; entries whose signature fails are skipped.
    signer, other = seeded_rsa_key("protocols/cm-certificate-key"), seeded_rsa_key("protocols/saltedge-other-key")
    spki = signer.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    for i in range(6):
        entries, expected = [], []
        for j in range(r.randrange(1, 5)):
            pin = {"hash": r.randbytes(32).hex(), "algorithm": "SHA-256", "spki_hash": b64(r.randbytes(32))}
            if j == 1:
                del pin["spki_hash"]
            data = compact(pin)
            kind = r.choice(["good", "good", "good", "other", "flipped"]) if i else "good"
            signature = (other if kind == "other" else signer).sign(data, rsa_padding.PKCS1v15(), hashes.SHA256())
            if kind == "flipped":
                signature = bytes([signature[0] ^ 1]) + signature[1:]
            entries.append({"data": b64(data), "signature": b64(signature)})
            if kind == "good":
                expected.append("%s|%s|%s" % (pin["hash"], pin.get("spki_hash", ""), pin["algorithm"]))
        case(pins, "%d entries, %d signed by the key" % (len(entries), len(expected)),
             {"publicKey": hx(spki), "body": hx(compact(entries))}, {"pins": expected})

    # §3.1: "<36-char environment id>,<secret>"; the remainder after the first comma is the secret.
    env_id = "0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6b"
    for text, result in [(env_id + ",secret", "valid"), (env_id + ",sec,ret", "valid"), (env_id + ",ü", "valid"),
                         (env_id + ",,", "valid"), (env_id + ",", "invalid"), (env_id, "invalid"), (env_id[1:] + ",secret", "invalid"),
                         (env_id + "x,secret", "invalid"), ("", "invalid"), (",secret", "invalid")]:
        outputs = {"environmentId": text[:36], "secret": text[37:]} if result == "valid" else {}
        case(qr, "QR text of %d characters" % len(text), {"qr": text}, outputs, result)
    return {"protocols/cm-bearer-token.json": document("CM-BEARER-TOKEN", tokens),
            "protocols/cm-certificate-list.json": document("CM-CERTIFICATE-LIST", pins),
            "protocols/cm-qr.json": document("CM-QR", qr)}
