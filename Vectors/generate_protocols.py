#!/usr/bin/env python3
"""Records SwiftMFA's own protocol-layer vectors into Vectors/protocols/ (docs/design.md §4).

The answers come from an implementation that is not ours: this file, written from the specs in
docs/protocols (powerauth.md, saltedge-v2.md, cm-authenticator.md, mpin.md §2) on top of
pyca/cryptography (OpenSSL: P-256, ECDH, AES, X9.63 KDF, RSA), Python's hashlib/hmac, and plain
Python integers for the BN254CX groups and pairing. Inputs come from fixed
seeds, so every file is reproduced byte for byte. PowerAuth is here; Salt Edge and CM are in
generate_protocols_rsa.py, BN254CX in generate_protocols_bn254cx.py, the pairing, M-Pin and DVS in
generate_protocols_pairing.py and generate_protocols_mpin.py (no library: the pairing is written there). Called by generate.py (also in --check mode);
run alone it does the same for Vectors/protocols only:

    python3 Vectors/generate_protocols.py [--check]

Same schema as generate.py (`swiftmfa-vectors-v1`); the file's `algorithm` names the protocol
operation (`POWERAUTH-SIGNATURE`, `SALTEDGE-BUNDLE`, `CM-BEARER-TOKEN`, `BN254CX-G1`, …). Byte strings are
lower-case hex; protocol texts (Base64 fields, JWTs, signatures) are JSON strings as sent.
"""

import base64
import hashlib
import hmac
import os
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.x963kdf import X963KDF

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate as base  # noqa: E402  (document, case, render, rng, probable_prime, references)

HERE = base.HERE
GENERATOR = "Vectors/generate_protocols.py"
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def hx(data):
    return data.hex()


def b64(data):
    return base64.b64encode(data).decode()


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def document(algorithm, cases):
    doc = base.document(algorithm, base.PYCA_REFERENCE + " + Python hashlib/hmac, from the specs", cases)
    doc["generator"] = GENERATOR
    return doc


case = base.case


# ---- PowerAuth primitives (docs/protocols/powerauth.md §1) ----

def aes_ecb(key, block):
    e = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return e.update(block) + e.finalize()


def aes_cbc(key, iv, data, pad=True):
    if pad:
        n = 16 - len(data) % 16
        data = data + bytes([n]) * n
    e = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return e.update(data) + e.finalize()


def fold16(b):
    return bytes(b[i] ^ b[i + 16] for i in range(16))


def kdf(key, index):
    """KDF(key16, index): AES-128-ECB of 0x00×8 ‖ BE64(index) (docs/protocols/powerauth.md §1)."""
    return aes_ecb(key, bytes(8) + index.to_bytes(8, "big"))


def kdf_internal(key, index_bytes):
    """KDF_INTERNAL(key16, indexBytes) = fold16(HMAC-SHA256(key16, indexBytes)) (§1)."""
    return fold16(hmac.new(key, index_bytes, "sha256").digest())


def decimalize(h, digits):
    return str((int.from_bytes(h[-4:], "big") & 0x7FFFFFFF) % 10 ** digits).zfill(digits)


def len_prefixed(items):
    return b"".join(len(i).to_bytes(4, "big") + i for i in items)


def p256_key(r):
    return ec.derive_private_key(r.randrange(1, P256_N), ec.SECP256R1())


def scalar(key):
    return key.private_numbers().private_value.to_bytes(32, "big")


def point(key, compressed=False):
    fmt = serialization.PublicFormat.CompressedPoint if compressed else serialization.PublicFormat.UncompressedPoint
    return key.public_key().public_bytes(serialization.Encoding.X962, fmt)


def ecdh(private, public_bytes):
    peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), public_bytes)
    return private.exchange(ec.ECDH(), peer)


def powerauth_keys():
    r = base.rng("protocols/powerauth-keys")
    keys, kdfs, internals, vault = [], [], [], []
    for i in range(24):
        device, server = p256_key(r), p256_key(r)
        server_public = point(server, compressed=i % 2 == 1)
        master = fold16(ecdh(device, server_public))
        transport = kdf(master, 1000)
        case(keys, "master secret and derived keys, %s server key" % ("compressed" if i % 2 else "uncompressed"),
             {"devicePrivateKey": hx(scalar(device)), "serverPublicKey": hx(server_public)},
             {"masterSecret": hx(master), "possession": hx(kdf(master, 1)), "knowledge": hx(kdf(master, 2)),
              "biometry": hx(kdf(master, 3)), "transport": hx(transport), "vault": hx(kdf(master, 2000)),
              "transportIV": hx(kdf(transport, 3000)), "transportCounter": hx(kdf(transport, 4000))})
    for index in [0, 1, 2, 3, 1000, 2000, 3000, 4000, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1] + \
            [r.randrange(0, 2 ** 64) for _ in range(13)]:
        key = r.randbytes(16)
        case(kdfs, "AES KDF, index %d" % index, {"key": hx(key), "index": str(index)}, {"key": hx(kdf(key, index))})
    for length in [16, 32, 16, 32, 0, 1, 15, 17, 31, 33, 64, 100]:
        key, index = r.randbytes(16), r.randbytes(length)
        case(internals, "HMAC KDF, %d-byte index" % length, {"key": hx(key), "index": hx(index)}, {"key": hx(kdf_internal(key, index))})
    # The secure vault (§12): the server wraps the vault key under the transport key; the
    # device private key is stored under the vault key; fetchEncryptionKey(index) = KDF.
    for i in range(10):
        master = r.randbytes(16)
        transport, vault_key = kdf(master, 1000), kdf(master, 2000)
        device = p256_key(r)
        index = r.randrange(0, 2 ** 64)
        case(vault, "vault unlock, index %d" % index,
             {"transportKey": hx(transport), "encryptedVaultEncryptionKey": hx(aes_cbc(transport, bytes(16), vault_key)),
              "cDevicePrivateKey": hx(aes_cbc(vault_key, bytes(16), scalar(device))), "index": str(index)},
             {"vaultKey": hx(vault_key), "encryptionKey": hx(kdf(vault_key, index)), "devicePrivateKey": hx(scalar(device))})
    transport = r.randbytes(16)
    case(vault, "wrapped vault key of 32 bytes (must be 16)",
         {"transportKey": hx(transport), "encryptedVaultEncryptionKey": hx(aes_cbc(transport, bytes(16), r.randbytes(32))),
          "cDevicePrivateKey": "", "index": "0"}, {}, "invalid")
    bad = bytearray(aes_cbc(transport, bytes(16), r.randbytes(16)))
    bad[-1] ^= 0x40
    case(vault, "wrapped vault key with broken padding",
         {"transportKey": hx(transport), "encryptedVaultEncryptionKey": hx(bytes(bad)), "cDevicePrivateKey": "", "index": "0"}, {}, "invalid")
    return {"protocols/powerauth-activation-keys.json": document("POWERAUTH-ACTIVATION-KEYS", keys),
            "protocols/powerauth-kdf.json": document("POWERAUTH-KDF", kdfs),
            "protocols/powerauth-kdf-internal.json": document("POWERAUTH-KDF-INTERNAL", internals),
            "protocols/powerauth-vault.json": document("POWERAUTH-VAULT", vault)}


# ---- PowerAuth signatures (§7) ----

URL_SAFE = set(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_.*")


def urlenc(text):
    return "".join(chr(c) if c in URL_SAFE else "+" if c == 0x20 else "%%%02X" % c for c in text.encode())


def canonical_query(pairs):
    return "&".join("%s=%s" % (urlenc(k), urlenc(v)) for k, v in sorted(pairs))


FACTORS = {"possession": (1, 0, 0), "knowledge": (0, 1, 0), "biometry": (0, 0, 1), "possession_knowledge": (1, 1, 0),
           "possession_biometry": (1, 0, 1), "possession_knowledge_biometry": (1, 1, 1)}


def signature_components(keys, counter, data):
    """§7.3: D_i = HMAC(K_i, CTR); D_i = HMAC(HMAC(K_{j+1}, CTR), D_i) for j < i; S_i = HMAC(D_i, DATA)."""
    out = []
    for i, key in enumerate(keys):
        d = hmac.new(key, counter, "sha256").digest()
        for j in range(i):
            d = hmac.new(hmac.new(keys[j + 1], counter, "sha256").digest(), d, "sha256").digest()
        out.append(hmac.new(d, data, "sha256").digest())
    return out


def powerauth_signatures():
    r = base.rng("protocols/powerauth-signature")
    cases = []
    methods = ["POST", "GET", "PUT", "DELETE", "HEAD", "PATCH"]
    uris = ["/pa/signature/validate", "/pa/token/create", "/pa/vault/unlock", "/pa/activation/remove", "/operation/authorize",
            "/ünïcode/päth"]
    for i in range(48):
        possession, knowledge, biometry, counter = r.randbytes(16), r.randbytes(16), r.randbytes(16), r.randbytes(16)
        factor_name = list(FACTORS)[i % 6]
        offline = i % 8 == 7
        method = "POST" if offline else methods[i % len(methods)]
        uri = "/operation/authorize/offline" if offline else r.choice(uris)
        query = None
        if offline:
            nonce = b64(r.randbytes(16))
            body = b"%s&Payment&%d.%02d" % (str(r.randrange(10 ** 8)).encode(), r.randrange(1000), r.randrange(100))
            secret, fmt, digits = "offline", "decimal", 4 + i % 5
        else:
            nonce = b64(r.randbytes(16))
            secret = b64(r.randbytes(16))
            if method == "GET":
                query = [[r.choice(["a", "zingly", "420", "hell0", "hello", "ключ", "x y"]), r.choice(["", "is da best", "w0rld", "10*42", "ä/ö?&="])]
                         for _ in range(r.randrange(0, 5))]
                body = canonical_query([tuple(p) for p in query]).encode()
            else:
                body = r.choice([b"", b"{}", b'{"requestObject":{"reason":"COUNTER_SYNCHRONIZATION"}}', r.randbytes(r.randrange(1, 300))])
            fmt, digits = ("base64", 0) if i % 3 else ("decimal", 8)
        data = "&".join([method, b64(uri.encode()), nonce, b64(body), secret]).encode()
        wanted = FACTORS[factor_name]
        keys = [k for k, use in zip([possession, knowledge, biometry], wanted) if use]
        components = signature_components(keys, counter, data)
        if fmt == "base64":
            signature = b64(b"".join(s[16:] for s in components))
        else:
            signature = "-".join(decimalize(s, digits) for s in components)
        inputs = {"possessionKey": hx(possession), "knowledgeKey": hx(knowledge), "biometryKey": hx(biometry), "ctrData": hx(counter),
                  "factors": factor_name, "method": method, "uriId": uri, "nonce": nonce, "body": hx(body), "appSecret": secret,
                  "format": fmt, "digits": digits}
        if query is not None:
            inputs["query"] = query
        case(cases, "%s%s %s, %s, %s" % ("offline " if offline else "", method, uri, factor_name, fmt + (" %d" % digits if digits else "")),
             inputs, {"normalizedData": hx(data), "signature": signature,
                      "nextCtrData": hx(fold16(hashlib.sha256(counter).digest()))})
    return {"protocols/powerauth-signature.json": document("POWERAUTH-SIGNATURE", cases)}


# ---- PowerAuth activation status (§6) and fingerprint (§5.3), tokens (§11.3) ----

def powerauth_status():
    r = base.rng("protocols/powerauth-status")
    cases = []

    def blob_case(comment, magic=b"\xde\xc0\xde\xd1", state=3, window=20, distance=0, length=32, result="valid"):
        transport, challenge, nonce = r.randbytes(16), r.randbytes(16), r.randbytes(16)
        local = r.randbytes(16)
        server = local
        for _ in range(distance):
            server = fold16(hashlib.sha256(server).digest())
        versions = [r.choice([2, 3]), 3]
        counters = [r.randrange(256), r.randrange(6), r.randrange(5, 11)]
        ctr_hash = kdf_internal(kdf(transport, 4000), server)
        blob = magic + bytes([state] + versions) + r.randbytes(5) + bytes(counters[:1] + counters[1:] + [window]) + ctr_hash
        iv = kdf_internal(kdf(transport, 3000), challenge + nonce)
        encrypted = aes_cbc(transport, iv, blob, pad=False)
        if length != 32:
            encrypted = (encrypted + r.randbytes(32))[:length]
        outputs = {}
        if result == "valid":
            outputs = {"iv": hx(iv), "state": state, "currentVersion": versions[0], "upgradeVersion": versions[1], "ctrByte": counters[0],
                       "failedAttempts": counters[1], "maxFailedAttempts": counters[2], "lookAheadWindow": window,
                       "ctrDataHash": hx(ctr_hash), "counterDistance": distance if distance < window else -1}
        case(cases, comment, {"transportKey": hx(transport), "challenge": hx(challenge), "nonce": hx(nonce),
                              "encryptedStatusBlob": hx(encrypted), "ctrData": hx(local)}, outputs, result)

    for state in [1, 2, 3, 4, 5]:
        for distance in [0, 1, 5]:
            blob_case("state %d, server %d steps ahead" % (state, distance), state=state, distance=distance)
    blob_case("magic DE C0 DE D2 (a later minor layout)", magic=b"\xde\xc0\xde\xd2")
    blob_case("look-ahead 64, counter 63 steps ahead", window=64, distance=63)
    blob_case("look-ahead 1", window=1)
    blob_case("server counter beyond the look-ahead window", window=5, distance=7)
    for comment, kwargs in [("magic DE C0 DE D0", {"magic": b"\xde\xc0\xde\xd0"}), ("magic DE C0 DF D1", {"magic": b"\xde\xc0\xdf\xd1"}),
                            ("magic DE C0 DE E1", {"magic": b"\xde\xc0\xde\xe1"}), ("state 0", {"state": 0}), ("state 6", {"state": 6}),
                            ("state 128 (client-only DEADLOCK)", {"state": 128}), ("look-ahead 0", {"window": 0}),
                            ("look-ahead 65", {"window": 65}), ("blob of 31 bytes", {"length": 31}), ("blob of 48 bytes", {"length": 48}),
                            ("blob of 16 bytes", {"length": 16})]:
        blob_case(comment, result="invalid", **kwargs)

    fingerprints = []
    r = base.rng("protocols/powerauth-fingerprint")
    found_short = 0
    while len(fingerprints) < 16 or found_short < 2:
        device, server = p256_key(r), p256_key(r)
        device_x, server_x = point(device)[1:33], point(server)[1:33]
        short = device_x[0] == 0 or server_x[0] == 0
        if len(fingerprints) >= 14 and not short:
            continue  # the last cases exercise X with a leading zero byte (31-byte X, §5.3)
        found_short += short
        activation_id = "%08x-%04x-4%03x-%04x-%012x" % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(12),
                                                       0x8000 | r.getrandbits(14), r.getrandbits(48))
        minimal = lambda x: x.lstrip(b"\x00")  # noqa: E731  unsigned big-endian, no leading zeros (§5.3)
        digest = hashlib.sha256(minimal(device_x) + activation_id.encode() + minimal(server_x)).digest()
        case(fingerprints, "activation fingerprint%s" % (" (an X with a leading zero byte)" if short else ""),
             {"devicePublicKey": hx(point(device, len(fingerprints) % 2 == 1)), "serverPublicKey": hx(point(server)),
              "activationId": activation_id}, {"fingerprint": decimalize(digest, 8)})

    tokens = []
    r = base.rng("protocols/powerauth-token")
    for version in ["3.0", "3.1", "3.2", "3.3"] * 4:
        secret, nonce = r.randbytes(16), r.randbytes(16)
        timestamp = r.randrange(10 ** 12, 2 * 10 ** 12)
        data = nonce + b"&" + str(timestamp).encode() + (b"&" + version.encode() if version >= "3.2" else b"")
        case(tokens, "token digest, version %s" % version, {"tokenSecret": hx(secret), "nonce": hx(nonce), "timestamp": timestamp,
                                                             "version": version}, {"digest": hx(hmac.new(secret, data, "sha256").digest())})
    return {"protocols/powerauth-status.json": document("POWERAUTH-STATUS", cases),
            "protocols/powerauth-fingerprint.json": document("POWERAUTH-FINGERPRINT", fingerprints),
            "protocols/powerauth-token.json": document("POWERAUTH-TOKEN", tokens)}


# ---- PowerAuth ECIES (§9) ----

SH1 = {"application": ["/pa/generic/application", "/pa/activation"],
       "activation": ["/pa/upgrade", "/pa/vault/unlock", "/pa/token/create", "/pa/recovery/confirm", "/pa/generic/activation"]}


def ecies_seal(env, iv, plaintext, sh2):
    c = aes_cbc(env[:16], iv, plaintext)
    return c, hmac.new(env[16:32], c + sh2, "sha256").digest()


def powerauth_ecies():
    r = base.rng("protocols/powerauth-ecies")
    cases = []
    for index in range(32):
        version = ["3.0", "3.1", "3.2", "3.3"][index % 4]
        scope = "application" if index % 8 < 4 else "activation"
        sh1 = r.choice(SH1[scope])
        app_key, app_secret = b64(r.randbytes(16)), b64(r.randbytes(16))
        transport = r.randbytes(16)
        activation_id = "%08x-%04x-4%03x-a%03x-%012x" % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(12), r.getrandbits(12), r.getrandbits(48))
        temp_key_id = "%08x-%04x-4%03x-b%03x-%012x" % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(12), r.getrandbits(12), r.getrandbits(48))
        server, ephemeral = p256_key(r), p256_key(r)
        e = point(ephemeral, compressed=True)
        # §9.1: SH2_BASE and associated data per scope and version.
        if scope == "application":
            sh2_base = hashlib.sha256(app_secret.encode()).digest()
            ad_items = [version.encode(), app_key.encode()]
        else:
            sh2_base = hmac.new(transport, app_secret.encode(), "sha256").digest()
            ad_items = [version.encode(), app_key.encode(), activation_id.encode()]
        if version == "3.3":
            ad_items.append(temp_key_id.encode())
        ad = len_prefixed(ad_items)
        # §9.2
        info = (version.encode() if version >= "3.2" else b"") + sh1.encode()
        env = X963KDF(algorithm=hashes.SHA256(), length=48, sharedinfo=info + e).derive(ecdh(ephemeral, point(server)))
        nonce = r.randbytes(16) if version >= "3.1" else None
        timestamp = r.randrange(10 ** 12, 2 * 10 ** 12) if version >= "3.2" else None
        iv = kdf_internal(env[32:], nonce) if nonce else bytes(16)
        sh2 = len_prefixed([sh2_base, nonce, timestamp.to_bytes(8, "big"), e, ad]) if version >= "3.2" else sh2_base
        request_plaintext = r.choice([b"{}", b'{"reason":"FETCH_ENCRYPTION_KEY"}', r.randbytes(r.randrange(0, 100)), b""])
        c, mac = ecies_seal(env, iv, request_plaintext, sh2)
        # §9.3
        response_plaintext = r.choice([b"{}", b'{"tokenId":"x","tokenSecret":"AAAAAAAAAAAAAAAAAAAAAA=="}', r.randbytes(r.randrange(0, 70))])
        response_nonce = r.randbytes(16) if version >= "3.2" else None
        response_ts = r.randrange(10 ** 12, 2 * 10 ** 12) if version >= "3.2" else None
        if version >= "3.2":
            response_iv = kdf_internal(env[32:], response_nonce)
            response_sh2 = len_prefixed([sh2_base, response_nonce, response_ts.to_bytes(8, "big"), b"", ad])
        else:
            response_iv, response_sh2 = iv, sh2_base
        rc, rmac = ecies_seal(env, response_iv, response_plaintext, response_sh2)
        inputs = {"version": version, "scope": scope, "sharedInfo1": sh1, "applicationKey": app_key, "applicationSecret": app_secret,
                  "transportKey": hx(transport), "activationId": activation_id, "temporaryKeyId": temp_key_id,
                  "serverPrivateKey": hx(scalar(server)), "serverPublicKey": hx(point(server)), "ephemeralPrivateKey": hx(scalar(ephemeral)),
                  "nonce": hx(nonce or b""), "timestamp": timestamp or 0, "requestPlaintext": hx(request_plaintext),
                  "responsePlaintext": hx(response_plaintext), "responseNonce": hx(response_nonce or b""), "responseTimestamp": response_ts or 0}
        outputs = {"ephemeralPublicKey": hx(e), "envelopeKey": hx(env), "associatedData": hx(ad) if version >= "3.2" else "",
                   "sharedInfo2Base": hx(sh2_base), "encryptedData": hx(c), "mac": hx(mac),
                   "responseEncryptedData": hx(rc), "responseMac": hx(rmac)}
        case(cases, "%s, %s scope, %s, %d-byte request" % (version, scope, sh1, len(request_plaintext)), inputs, outputs)
        if index % 4 == 3 or index % 8 == 1:
            # The client must refuse a response whose MAC or ciphertext was changed.
            for what in ["responseMac", "responseEncryptedData"]:
                tampered = dict(inputs, responseEncryptedData=hx(rc), responseMac=hx(rmac))
                flipped = bytearray(rc if what == "responseEncryptedData" else rmac)
                flipped[r.randrange(len(flipped))] ^= 1 << r.randrange(8)
                tampered[what] = hx(bytes(flipped))
                case(cases, "%s, %s scope: one bit of the %s flipped" % (version, scope, what), tampered, {}, "invalid")
    return {"protocols/powerauth-ecies.json": document("POWERAUTH-ECIES", cases)}


def self_check():
    """The helpers above must reproduce the spec's worked examples (docs/protocols/powerauth.md §17, §7.2)."""
    d = base64.b64decode
    counter = d("hkIpYfIqQsMrj1Nbuh/BbA==")
    body = b'{"requestObject":{"reason":"COUNTER_SYNCHRONIZATION"}}'
    data = "&".join(["POST", b64(b"/pa/signature/validate"), b64(b"\xa5" * 16), b64(body), "fLz13bJJtBHZCgJve1oHUQ=="]).encode()
    components = signature_components([d("M3p1tPYouptaX8z5Dhc2cw=="), d("SG3aE8VTXg6wzkuNuZWaIg==")], counter, data)
    assert b64(b"".join(s[16:] for s in components)) == "tupTilo1sAPlVXMMXxKms2BWa7yAkuikpaVZ48RixC4="
    assert "-".join(decimalize(s, 8) for s in components) == "95057843-47323438"
    assert b64(fold16(hashlib.sha256(counter).digest())) == "supU5C6gMLkLgXGd3oDe3A=="
    assert b64(kdf_internal(d("v8ZPpTuh1IIBaUnhkXcNbw=="), d("fLz13bJJtBHZCgJve1oHUQ=="))) == "G6y538LWJxtIeXt8zt9WAg=="
    assert canonical_query([("zingly", "is da best"), ("420", "is equal to 10*42"), ("hello", "world"), ("hell0", "w0rld")]) \
        == "420=is+equal+to+10*42&hell0=w0rld&hello=world&zingly=is+da+best"
    token = hmac.new(d("VqAXEhziiT27lxoqREjtcQ=="), bytes(range(16)) + b"&1691762307382&3.3", "sha256").digest()
    assert b64(token) == "Xi6ZrwQDCike/0i3n+73XnV5qMoFW7izHYE5SJpDmNA="


def producers():
    """Every file's producer; the Salt Edge, CM and BN254CX ones live in their own modules."""
    import generate_protocols_bn254cx as bn254cx
    import generate_protocols_mpin as mpin_protocols
    import generate_protocols_rsa as rsa_protocols
    return [powerauth_keys, powerauth_signatures, powerauth_status, powerauth_ecies, rsa_protocols.saltedge, rsa_protocols.cm,
            bn254cx.bn254cx, mpin_protocols.mpin]


def main(check=None):
    """Writes (or with --check verifies) Vectors/protocols; returns True when nothing is stale."""
    check = "--check" in sys.argv if check is None else check
    self_check()
    files = {}
    for producer in producers():
        files.update(producer())
    stale = []
    for relative, doc in sorted(files.items()):
        path = os.path.join(HERE, relative)
        text = base.render(doc)
        if check:
            try:
                with open(path, encoding="utf-8") as handle:
                    current = handle.read()
            except FileNotFoundError:
                current = None
            if current != text:
                stale.append(relative)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        print("wrote %s: %d cases" % (relative, len(doc["cases"])))
    if stale:
        print("stale: " + ", ".join(stale))
    return not stale


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
