#!/usr/bin/env python3
"""Records SwiftMFA's own test vectors (docs/design.md §4).

Every expected value comes from an independent implementation: Python's hashlib and hmac
(OpenSSL underneath) and pyca/cryptography (its own OpenSSL build). Inputs come from fixed
seeds, so running this script again reproduces every file byte for byte.

    python3 Vectors/generate.py            # rewrite every file
    python3 Vectors/generate.py --check    # verify the files on disk are what it would write

Schema `swiftmfa-vectors-v1`: {"schema", "algorithm", "reference", "generator", "cases": [
{"id", "comment", "result": "valid"|"invalid", "inputs": {...}, "outputs": {...}}]}. Byte
strings are lower-case hex, or {"repeat": hex, "count": n} for long repetitive messages.

The files in acvp/ are NIST ACVP vector sets instead ([{"acvVersion"}, {"algorithm", "revision",
"testGroups"}], upper-case hex), with each test's expected answer inline.
"""

import hashlib
import hmac
import json
import os
import random
import sys

from cryptography import __version__ as cryptography_version
from cryptography.hazmat.backends.openssl import backend
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric import padding as rsa_padding
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.x963kdf import X963KDF

HERE = os.path.dirname(os.path.abspath(__file__))
HASHLIB_REFERENCE = "Python %s hashlib/hmac (OpenSSL)" % sys.version.split()[0]
PYCA_REFERENCE = "pyca/cryptography %s (%s)" % (cryptography_version, backend.openssl_version_text())
HASHES = {"SHA-1": "sha1", "SHA-224": "sha224", "SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512"}
PYCA_HASHES = {"SHA1": hashes.SHA1, "SHA256": hashes.SHA256, "SHA384": hashes.SHA384, "SHA512": hashes.SHA512}


def rng(label):
    """A PRNG seeded from the file's label, so each file is independent of the others."""
    return random.Random("swiftmfa-vectors-v1/" + label)


def hx(data):
    return data.hex()


def document(algorithm, reference, cases):
    return {"schema": "swiftmfa-vectors-v1", "algorithm": algorithm, "reference": reference,
            "generator": "Vectors/generate.py", "cases": cases}


def case(cases, comment, inputs, outputs, result="valid"):
    cases.append({"id": len(cases) + 1, "comment": comment, "result": result, "inputs": inputs, "outputs": outputs})


def digests():
    files = {}
    for name, hashlib_name in HASHES.items():
        r = rng("digest/" + name)
        cases = []
        for length in list(range(0, 301)) + [1000, 4095, 4096, 4097]:
            message = r.randbytes(length)
            case(cases, "length %d" % length, {"msg": hx(message)},
                 {"digest": hashlib.new(hashlib_name, message).hexdigest()})
        million = b"\x61" * (1 << 20)
        case(cases, "1 MiB of 'a'", {"msg": {"repeat": "61", "count": 1 << 20}},
             {"digest": hashlib.new(hashlib_name, million).hexdigest()})
        files["digest/%s.json" % hashlib_name] = document(name, HASHLIB_REFERENCE, cases)
    return files


def hmacs():
    files = {}
    for name, hashlib_name in HASHES.items():
        r = rng("hmac/" + name)
        digest_size = hashlib.new(hashlib_name).digest_size
        key_lengths = range(0, 301) if name == "SHA-256" else range(0, 301, 7)
        cases = []
        for key_length in key_lengths:
            key, message = r.randbytes(key_length), r.randbytes(r.randrange(0, 200))
            tag = hmac.new(key, message, hashlib_name).digest()
            case(cases, "key length %d" % key_length, {"key": hx(key), "msg": hx(message)}, {"tag": hx(tag)})
        # Truncated tags: accepted from max(10, half the digest) bytes up (RFC 2104 §5, our rule).
        minimum = max(10, digest_size // 2)
        for length in range(1, digest_size + 1):
            key, message = r.randbytes(32), r.randbytes(50)
            tag = hmac.new(key, message, hashlib_name).digest()[:length]
            result = "valid" if length >= minimum else "invalid"
            case(cases, "tag truncated to %d bytes" % length, {"key": hx(key), "msg": hx(message)}, {"tag": hx(tag)}, result)
        # Tampered tags: one flipped bit anywhere in the tag must be rejected.
        for bit in range(0, 8 * digest_size, 5):
            key, message = r.randbytes(32), r.randbytes(40)
            tag = bytearray(hmac.new(key, message, hashlib_name).digest())
            tag[bit // 8] ^= 1 << (bit % 8)
            case(cases, "bit %d of the tag flipped" % bit, {"key": hx(key), "msg": hx(message)}, {"tag": hx(tag)}, "invalid")
        files["hmac/hmac-%s.json" % hashlib_name] = document("HMAC-" + name.replace("-", ""), HASHLIB_REFERENCE, cases)
    return files


def pbkdf2():
    files = {}
    for name, hashlib_name in [("SHA1", "sha1"), ("SHA256", "sha256")]:
        r = rng("pbkdf2/" + name)
        cases = []
        for rounds in [1, 2, 3, 10, 100, 1000, 4096, 10000]:
            for _ in range(6):
                password, salt = r.randbytes(r.randrange(0, 101)), r.randbytes(r.randrange(0, 65))
                length = r.randrange(1, 101)
                key = hashlib.pbkdf2_hmac(hashlib_name, password, salt, rounds, length)
                case(cases, "%d rounds, %d-byte output" % (rounds, length),
                     {"password": hx(password), "salt": hx(salt), "rounds": rounds}, {"key": hx(key)})
        files["kdf/pbkdf2-hmac-%s.json" % hashlib_name] = document("PBKDF2-HMAC-" + name, HASHLIB_REFERENCE, cases)
    return files


def hkdf():
    files = {}
    for name, algorithm in PYCA_HASHES.items():
        r = rng("hkdf/" + name)
        hash_length = algorithm.digest_size
        cases = []
        lengths = [1, 2, hash_length - 1, hash_length, hash_length + 1, 2 * hash_length, 255 * hash_length]
        lengths += [r.randrange(1, 255 * hash_length + 1) for _ in range(30)]
        for length in lengths:
            ikm = r.randbytes(r.randrange(1, 101))
            salt = r.randbytes(r.choice([0, 1, 16, hash_length, 100, 200]))
            info = r.randbytes(r.randrange(0, 101))
            okm = HKDF(algorithm=algorithm(), length=length, salt=salt or None, info=info).derive(ikm)
            case(cases, "L = %d, salt %d bytes" % (length, len(salt)),
                 {"ikm": hx(ikm), "salt": hx(salt), "info": hx(info)}, {"okm": hx(okm)})
        files["kdf/hkdf-%s.json" % name.lower()] = document("HKDF-" + name, PYCA_REFERENCE, cases)
    return files


def x963():
    files = {}
    for name, algorithm in PYCA_HASHES.items():
        r = rng("x963/" + name)
        cases = []
        lengths = range(1, 201) if name == "SHA256" else range(1, 201, 9)
        for length in lengths:
            z = r.randbytes(r.choice([24, 32, 48, 66]))
            shared_info = r.randbytes(r.choice([0, 1, 16, 32, 65]))
            key = X963KDF(algorithm=algorithm(), length=length, sharedinfo=shared_info or None).derive(z)
            case(cases, "%d-byte output" % length, {"z": hx(z), "sharedInfo": hx(shared_info)}, {"key": hx(key)})
        files["kdf/x963kdf-%s.json" % name.lower()] = document("X963KDF-" + name, PYCA_REFERENCE, cases)
    return files


def aes_lengths():
    return sorted(set(list(range(0, 81)) + list(range(96, 1101, 29)) + [127, 128, 129, 255, 256, 257, 1023, 1024, 1025, 1100]))


def aes_encrypt(key, mode, data):
    encryptor = Cipher(algorithms.AES(key), mode).encryptor()
    return encryptor.update(data) + encryptor.finalize()


def aes_cbc():
    r = rng("aes/cbc")
    padded, unpadded, ecb = [], [], []
    for key_bits in [128, 192, 256]:
        for length in aes_lengths():
            key, iv, plaintext = r.randbytes(key_bits // 8), r.randbytes(16), r.randbytes(length)
            pad = 16 - length % 16
            ciphertext = aes_encrypt(key, modes.CBC(iv), plaintext + bytes([pad]) * pad)
            case(padded, "AES-%d, %d bytes" % (key_bits, length), {"key": hx(key), "iv": hx(iv), "pt": hx(plaintext)}, {"ct": hx(ciphertext)})
            if length % 16 == 0:
                ciphertext = aes_encrypt(key, modes.CBC(iv), plaintext)
                case(unpadded, "AES-%d, %d bytes" % (key_bits, length), {"key": hx(key), "iv": hx(iv), "pt": hx(plaintext)}, {"ct": hx(ciphertext)})
        # Bad padding: every way the last block can be wrong decrypts to the same failure.
        key, iv = r.randbytes(key_bits // 8), r.randbytes(16)
        body = r.randbytes(r.choice([0, 16, 32]))
        bad_tails = [bytes(15) + b"\x00", bytes(15) + b"\x11", bytes(15) + b"\xff", bytes(14) + b"\x01\x02",
                     b"\x10" * 15 + b"\x0f", b"\x03" * 13 + b"\x02\x03\x03", bytes([5] * 11) + bytes([5, 5, 4, 5, 5]),
                     b"\x10" * 15 + b"\x11", bytes(range(16))]
        for index, tail in enumerate(bad_tails):
            ciphertext = aes_encrypt(key, modes.CBC(iv), body + tail)
            case(padded, "AES-%d, bad padding %d" % (key_bits, index), {"key": hx(key), "iv": hx(iv), "ct": hx(ciphertext)}, {}, "invalid")
        for length in [1, 15, 17, 31]:
            case(padded, "AES-%d, ciphertext of %d bytes" % (key_bits, length),
                 {"key": hx(key), "iv": hx(iv), "ct": hx(r.randbytes(length))}, {}, "invalid")
        case(padded, "AES-%d, empty ciphertext" % key_bits, {"key": hx(key), "iv": hx(iv), "ct": ""}, {}, "invalid")
        for _ in range(8):
            key, block = r.randbytes(key_bits // 8), r.randbytes(16)
            case(ecb, "AES-%d single block" % key_bits, {"key": hx(key), "pt": hx(block)}, {"ct": hx(aes_encrypt(key, modes.ECB(), block))})
    return {"aes/aes-cbc-pkcs7.json": document("AES-CBC-PKCS7", PYCA_REFERENCE, padded),
            "aes/aes-cbc-nopad.json": document("AES-CBC-NOPAD", PYCA_REFERENCE, unpadded),
            "aes/aes-ecb.json": document("AES-ECB", PYCA_REFERENCE, ecb)}


def aes_ctr():
    r = rng("aes/ctr")
    cases = []
    for key_bits in [128, 192, 256]:
        for length in aes_lengths():
            key, counter, plaintext = r.randbytes(key_bits // 8), r.randbytes(16), r.randbytes(length)
            case(cases, "AES-%d, %d bytes" % (key_bits, length), {"key": hx(key), "counter": hx(counter), "pt": hx(plaintext)},
                 {"ct": hx(aes_encrypt(key, modes.CTR(counter), plaintext))})
        # Counters that carry out of the low 64 bits, and that wrap the whole 128-bit block.
        for start, label in [((1 << 64) - 3, "crosses 2^64"), ((1 << 128) - 3, "wraps 2^128"),
                             ((1 << 64) - 1, "at 2^64 - 1"), ((1 << 128) - 1, "at 2^128 - 1")]:
            for length in [48, 100, 160]:
                key, plaintext = r.randbytes(key_bits // 8), r.randbytes(length)
                counter = start.to_bytes(16, "big")
                case(cases, "AES-%d, counter %s, %d bytes" % (key_bits, label, length),
                     {"key": hx(key), "counter": hx(counter), "pt": hx(plaintext)},
                     {"ct": hx(aes_encrypt(key, modes.CTR(counter), plaintext))})
    return {"aes/aes-ctr.json": document("AES-CTR", PYCA_REFERENCE, cases)}


P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P256_P = 2**256 - 2**224 + 2**192 + 2**96 - 1


def p256_key(r):
    return ec.derive_private_key(r.randrange(1, P256_N), ec.SECP256R1())


def point_bytes(key, compressed=False):
    form = serialization.PublicFormat.CompressedPoint if compressed else serialization.PublicFormat.UncompressedPoint
    return key.public_key().public_bytes(serialization.Encoding.X962, form)


def scalar_bytes(key):
    return key.private_numbers().private_value.to_bytes(32, "big")


def p256():
    r = rng("p256")
    verify, deterministic, keys, ecdh = [], [], [], []
    for index in range(60):
        key = p256_key(r)
        message = r.randbytes(r.randrange(0, 300))
        # Deterministic (RFC 6979) so that the file is reproducible; OpenSSL picks the nonce.
        der = key.sign(message, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
        public = hx(point_bytes(key))
        rr, ss = decode_dss_signature(der)
        case(verify, "OpenSSL signature", {"publicKey": public, "msg": hx(message), "sig": hx(der)}, {})
        case(verify, "high s (no low-s rule on P-256)", {"publicKey": public, "msg": hx(message),
             "sig": hx(encode_dss_signature(rr, P256_N - ss))}, {})
        if index % 3 == 0:
            case(verify, "message changed", {"publicKey": public, "msg": hx(message + b"\x00"), "sig": hx(der)}, {}, "invalid")
            case(verify, "r and s swapped", {"publicKey": public, "msg": hx(message), "sig": hx(encode_dss_signature(ss, rr))}, {}, "invalid")
            case(verify, "s + n", {"publicKey": public, "msg": hx(message), "sig": hx(encode_dss_signature(rr, ss + P256_N))}, {}, "invalid")
            other = hx(point_bytes(p256_key(r)))
            case(verify, "another key", {"publicKey": other, "msg": hx(message), "sig": hx(der)}, {}, "invalid")
            bad = bytearray(der)
            bad[-1 - r.randrange(0, 30)] ^= 1 << r.randrange(0, 8)
            case(verify, "one bit of s flipped", {"publicKey": public, "msg": hx(message), "sig": hx(bytes(bad))}, {}, "invalid")
        other_message = r.randbytes(r.randrange(0, 300))
        deterministic_der = key.sign(other_message, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
        case(deterministic, "RFC 6979, %d-byte message" % len(other_message), {"privateKey": hx(scalar_bytes(key)), "msg": hx(other_message)},
             {"sig": hx(deterministic_der)})
        pkcs8 = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        sec1 = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption())
        spki = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        case(keys, "OpenSSL key encodings", {"privateKey": hx(scalar_bytes(key)), "pkcs8": hx(pkcs8), "sec1": hx(sec1)},
             {"publicKey": public, "compressedPublicKey": hx(point_bytes(key, True)), "spki": hx(spki)})
        peer = p256_key(r)
        compressed = index % 2 == 1
        case(ecdh, "shared secret, %s peer point" % ("compressed" if compressed else "uncompressed"),
             {"privateKey": hx(scalar_bytes(key)), "publicKey": hx(point_bytes(peer, compressed))},
             {"shared": hx(key.exchange(ec.ECDH(), peer.public_key()))})
    # Invalid peer points: off the curve, coordinates ≥ p, x without a square root, bad prefixes.
    key = p256_key(r)
    good = point_bytes(p256_key(r))
    invalid = [("y changed: off the curve", good[:-1] + bytes([good[-1] ^ 1])),
               ("x = p", b"\x04" + P256_P.to_bytes(32, "big") + good[33:]),
               ("y = p + y", b"\x04" + good[1:33] + (int.from_bytes(good[33:], "big") + P256_P).to_bytes(33, "big")[1:]),
               ("all zero", b"\x04" + bytes(64)), ("infinity", b"\x00"), ("prefix 05", b"\x05" + good[1:]),
               ("compressed x = 1 (no square root)", b"\x02" + (1).to_bytes(32, "big")),
               ("compressed x = p", b"\x03" + P256_P.to_bytes(32, "big")), ("truncated", good[:-1])]
    for label, point in invalid:
        case(ecdh, "invalid peer point: " + label, {"privateKey": hx(scalar_bytes(key)), "publicKey": hx(point)}, {}, "invalid")
    return {"p256/ecdsa-p256-sha256-verify.json": document("ECDSA-P256-SHA256-VERIFY", PYCA_REFERENCE, verify),
            "p256/ecdsa-p256-sha256-deterministic.json": document("ECDSA-P256-SHA256-RFC6979", PYCA_REFERENCE, deterministic),
            "p256/p256-key-encodings.json": document("P256-KEYS", PYCA_REFERENCE, keys),
            "p256/ecdh-p256.json": document("ECDH-P256", PYCA_REFERENCE, ecdh)}


RSA_SIZES = [2048, 2048, 3072, 4096]


def probable_prime(r, bits):
    """A prime of `bits` bits with the top two bits set, e = 65537 coprime to p − 1: seeded
    candidates and 40 Miller–Rabin rounds here; OpenSSL checks the assembled key on load."""
    small = [p for p in range(3, 2000) if all(p % q for q in range(2, int(p ** 0.5) + 1))]
    while True:
        w = r.getrandbits(bits) | (3 << (bits - 2)) | 1
        if any(w % p == 0 for p in small) or w % 65537 == 1:
            continue
        d, a = w - 1, 0
        while d % 2 == 0:
            d, a = d // 2, a + 1
        for _ in range(40):
            x = pow(r.randrange(2, w - 1), d, w)
            if x in (1, w - 1):
                continue
            for _ in range(a - 1):
                x = pow(x, 2, w)
                if x == w - 1:
                    break
            else:
                break
        else:
            return w


def rsa_keys():
    """The recorded keys, built by OpenSSL (through pyca) from seeded primes."""
    r = rng("rsa-keys")
    keys = []
    for bits in RSA_SIZES:
        p, q = probable_prime(r, bits // 2), probable_prime(r, bits // 2)
        n, e = p * q, 65537
        d = pow(e, -1, (p - 1) * (q - 1) // __import__("math").gcd(p - 1, q - 1))
        numbers = rsa.RSAPrivateNumbers(p, q, d, rsa.rsa_crt_dmp1(d, p), rsa.rsa_crt_dmq1(d, q), rsa.rsa_crt_iqmp(p, q),
                                        rsa.RSAPublicNumbers(e, n))
        keys.append(numbers.private_key())
    return keys


def rsa_der(key):
    pkcs8 = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    spki = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return pkcs8, spki


def mgf1(seed, length, name):
    out = b""
    counter = 0
    while len(out) < length:
        out += hashlib.new(name, seed + counter.to_bytes(4, "big")).digest()
        counter += 1
    return out[:length]


def oaep_encrypt(key, message, label, name, mgf_name, seed):
    """RFC 8017 §7.1.1 with a chosen seed (so the file is reproducible), then the raw RSA
    operation; the caller has OpenSSL decrypt every result."""
    numbers = key.public_key().public_numbers()
    k = (numbers.n.bit_length() + 7) // 8
    h_len = hashlib.new(name).digest_size
    db = hashlib.new(name, label).digest() + bytes(k - len(message) - 2 * h_len - 2) + b"\x01" + message
    masked_db = bytes(a ^ b for a, b in zip(db, mgf1(seed, k - h_len - 1, mgf_name)))
    masked_seed = bytes(a ^ b for a, b in zip(seed, mgf1(masked_db, h_len, mgf_name)))
    em = b"\x00" + masked_seed + masked_db
    return pow(int.from_bytes(em, "big"), numbers.e, numbers.n).to_bytes(k, "big")


def pss_sign(key, message, name, salt):
    """RFC 8017 §9.1.1 with a chosen salt, then the raw private operation; OpenSSL verifies."""
    numbers = key.private_numbers()
    n = numbers.public_numbers.n
    em_bits = n.bit_length() - 1
    em_len = (em_bits + 7) // 8
    m_hash = hashlib.new(name, message).digest()
    h = hashlib.new(name, bytes(8) + m_hash + salt).digest()
    db = bytes(em_len - len(salt) - len(h) - 2) + b"\x01" + salt
    masked = bytearray(a ^ b for a, b in zip(db, mgf1(h, em_len - len(h) - 1, name)))
    masked[0] &= 0xFF >> (8 * em_len - em_bits)
    em = bytes(masked) + h + b"\xbc"
    return pow(int.from_bytes(em, "big"), numbers.d, n).to_bytes((n.bit_length() + 7) // 8, "big")


def flip(r, data):
    out = bytearray(data)
    out[r.randrange(len(out))] ^= 1 << r.randrange(8)
    return bytes(out)


def rsa_vectors():
    r = rng("rsa")
    keys = rsa_keys()
    encodings, oaep, pkcs1_enc, pkcs1_sig, pss = [], [], [], [], []
    pairings = [("SHA-256", "SHA-256"), ("SHA-256", "SHA-1"), ("SHA-1", "SHA-1")]
    for key in keys:
        bits = key.key_size
        pkcs8, spki = rsa_der(key)
        pkcs1 = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption())
        pkcs1_public = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.PKCS1)
        case(encodings, "OpenSSL %d-bit key" % bits, {"pkcs8": hx(pkcs8), "pkcs1": hx(pkcs1)},
             {"spki": hx(spki), "pkcs1Public": hx(pkcs1_public)})
        k = bits // 8
        n = key.public_key().public_numbers().n
        for name, mgf_name in pairings:
            h_len = hashlib.new(HASHES[name]).digest_size
            longest = k - 2 * h_len - 2
            for length, label in [(0, b""), (1, b"ABC"), (r.randrange(2, 64), r.randbytes(r.randrange(0, 40))), (longest, b"")]:
                message, seed = r.randbytes(length), r.randbytes(h_len)
                ct = oaep_encrypt(key, message, label, HASHES[name], HASHES[mgf_name], seed)
                pad = rsa_padding.OAEP(rsa_padding.MGF1(PYCA_HASHES[mgf_name.replace("-", "")]()),
                                       PYCA_HASHES[name.replace("-", "")](), label or None)
                assert key.decrypt(ct, pad) == message, "OpenSSL must decrypt the recorded ciphertext"
                inputs = {"privateKey": hx(pkcs8), "hash": name, "mgf1Hash": mgf_name, "label": hx(label), "seed": hx(seed)}
                case(oaep, "%d-bit key, %d-byte message, %d-byte label" % (bits, length, len(label)), dict(inputs, ct=hx(ct)),
                     {"msg": hx(message)})
            case(oaep, "%d-bit key: one ciphertext bit flipped" % bits, dict(inputs, ct=hx(flip(r, ct))), {}, "invalid")
            case(oaep, "%d-bit key: another label" % bits, dict(inputs, ct=hx(ct), label=hx(b"other")), {}, "invalid")
        case(oaep, "%d-bit key: c = n" % bits, dict(inputs, ct=hx(n.to_bytes(k, "big"))), {}, "invalid")
        case(oaep, "%d-bit key: c one byte short" % bits, dict(inputs, ct=hx(ct[1:])), {}, "invalid")
        # PKCS #1 v1.5 encryption (RFC 8017 §7.2.1) with a seeded nonzero padding string, so the
        # file is reproducible; OpenSSL decrypts each one.
        e = key.public_key().public_numbers().e
        for length in [0, 1, r.randrange(2, 100), k - 11]:
            message = r.randbytes(length)
            ps = bytes(r.randrange(1, 256) for _ in range(k - 3 - length))
            ct = pow(int.from_bytes(b"\x00\x02" + ps + b"\x00" + message, "big"), e, n).to_bytes(k, "big")
            assert key.decrypt(ct, rsa_padding.PKCS1v15()) == message, "OpenSSL must decrypt the recorded ciphertext"
            case(pkcs1_enc, "%d-bit key, %d-byte message" % (bits, length), {"privateKey": hx(pkcs8), "ct": hx(ct)}, {"msg": hx(message)})
        # Blocks that break RFC 8017 §7.2.2 step 3, encrypted raw (invalid by the RFC's rule:
        # OpenSSL 3 answers those with implicit rejection instead of an error).
        bad_blocks = [("first byte 01", b"\x01\x02" + bytes([1] * (k - 3)) + b"\x00"),
                      ("block type 01", b"\x00\x01" + bytes([0xFF] * (k - 4)) + b"\x00\x00"),
                      ("no zero separator", b"\x00\x02" + bytes([7] * (k - 2))),
                      ("padding string of 7 bytes", b"\x00\x02" + bytes([7] * 7) + b"\x00" + bytes([9] * (k - 10)))]
        for label, em in bad_blocks:
            ct = pow(int.from_bytes(em, "big"), e, n).to_bytes(k, "big")
            case(pkcs1_enc, "%d-bit key: %s" % (bits, label), {"privateKey": hx(pkcs8), "ct": hx(ct)}, {}, "invalid")
        # PKCS #1 v1.5 signatures (deterministic): OpenSSL's, to reproduce and verify.
        for name in ["SHA-256", "SHA-384", "SHA-512", "SHA-1"]:
            message = r.randbytes(r.randrange(0, 200))
            sig = key.sign(message, rsa_padding.PKCS1v15(), PYCA_HASHES[name.replace("-", "")]())
            case(pkcs1_sig, "%d-bit key, %s" % (bits, name), {"privateKey": hx(pkcs8), "publicKey": hx(spki), "hash": name,
                 "msg": hx(message), "sig": hx(sig)}, {})
            case(pkcs1_sig, "%d-bit key, %s: one bit flipped" % (bits, name), {"publicKey": hx(spki), "hash": name,
                 "msg": hx(message), "sig": hx(flip(r, sig))}, {}, "invalid")
        case(pkcs1_sig, "%d-bit key: message changed" % bits, {"publicKey": hx(spki), "hash": "SHA-1",
             "msg": hx(message + b"!"), "sig": hx(sig)}, {}, "invalid")
        # PSS, SHA-256 with MGF1-SHA-256: salts of 0 and 32 bytes chosen here; OpenSSL verifies.
        for salt_length in [0, 32, 0, 32]:
            message, salt = r.randbytes(r.randrange(0, 200)), r.randbytes(salt_length)
            sig = pss_sign(key, message, "sha256", salt)
            key.public_key().verify(sig, message, rsa_padding.PSS(rsa_padding.MGF1(hashes.SHA256()), salt_length), hashes.SHA256())
            inputs = {"privateKey": hx(pkcs8), "publicKey": hx(spki), "hash": "SHA-256", "saltLength": salt_length,
                      "salt": hx(salt), "msg": hx(message), "sig": hx(sig)}
            case(pss, "%d-bit key, %d-byte salt" % (bits, salt_length), inputs, {})
        case(pss, "%d-bit key: one bit flipped" % bits, dict(inputs, sig=hx(flip(r, sig))), {}, "invalid")
        case(pss, "%d-bit key: message changed" % bits, dict(inputs, msg=hx(message + b"!")), {}, "invalid")
        case(pss, "%d-bit key: salt length 0 expected" % bits, dict(inputs, saltLength=0), {}, "invalid")
    return {"rsa/rsa-key-encodings.json": document("RSA-KEYS", PYCA_REFERENCE, encodings),
            "rsa/rsaes-oaep.json": document("RSAES-OAEP", PYCA_REFERENCE, oaep),
            "rsa/rsaes-pkcs1v15.json": document("RSAES-PKCS1-V1_5", PYCA_REFERENCE, pkcs1_enc),
            "rsa/rsassa-pkcs1v15.json": document("RSASSA-PKCS1-V1_5", PYCA_REFERENCE, pkcs1_sig),
            "rsa/rsassa-pss.json": document("RSASSA-PSS", PYCA_REFERENCE, pss)}


def ux(data):
    """ACVP writes hex in upper case."""
    return data.hex().upper()


def acvp_document(algorithm, revision, groups, reference, mode=None):
    """An ACVP vector set with the answers inline (a combined prompt + expectedResults file)."""
    head = {"vsId": 0, "algorithm": algorithm}
    if mode:
        head["mode"] = mode
    head.update({"revision": revision, "isSample": True, "generator": "Vectors/generate.py", "reference": reference})
    for index, group in enumerate(groups):
        group["tgId"] = index + 1
    tc = 0
    for group in groups:
        for test in group["tests"]:
            tc += 1
            test["tcId"] = tc
    head["testGroups"] = groups
    return head


def sha_mct(name, seed):
    """draft-celi-acvp-sha §6.2 (standard): MD0 = MD1 = MD2 = Seed; MDi = H(MDi-3 || MDi-2 || MDi-1)
    for i = 3..1002; MD1002 is the round's output and the next seed; 100 rounds."""
    results = []
    for _ in range(100):
        md = [seed, seed, seed]
        for _ in range(1000):
            md = [md[1], md[2], hashlib.new(name, md[0] + md[1] + md[2]).digest()]
        seed = md[2]
        results.append({"md": ux(seed)})
    return results


def acvp_sha():
    files = {}
    for name, hashlib_name, label in [("SHA-1", "sha1", "SHA-1-1.0"), ("SHA2-224", "sha224", "SHA2-224-1.0"),
                                      ("SHA2-384", "sha384", "SHA2-384-1.0")]:
        r = rng("acvp/" + label)
        size = hashlib.new(hashlib_name).digest_size
        block = hashlib.new(hashlib_name).block_size
        aft = []
        for length in [0, 1, 3, size, block - 9, block - 8, block - 1, block, block + 1, 2 * block - 9, 2 * block - 8,
                       2 * block, 3 * block + 17, r.randrange(200, 1000), r.randrange(1000, 4000)]:
            message = r.randbytes(length)
            aft.append({"msg": ux(message), "len": 8 * length, "md": ux(hashlib.new(hashlib_name, message).digest())})
        seed = r.randbytes(size)
        mct = [{"msg": ux(seed), "len": 8 * size, "resultsArray": sha_mct(hashlib_name, seed)}]
        groups = [{"testType": "AFT", "tests": aft}, {"testType": "MCT", "mctVersion": "standard", "tests": mct}]
        files["acvp/%s.json" % label] = acvp_document(name, "1.0", groups, HASHLIB_REFERENCE)
    return files


def acvp_hmac():
    r = rng("acvp/HMAC-SHA-1-1.0")
    groups = []
    for key_length, mac_bits in [(10, 160), (20, 160), (64, 160), (100, 160), (20, 80), (32, 96)]:
        tests = []
        for _ in range(5):
            key, message = r.randbytes(key_length), r.randbytes(128)
            mac = hmac.new(key, message, "sha1").digest()[:mac_bits // 8]
            tests.append({"key": ux(key), "msg": ux(message), "mac": ux(mac)})
        groups.append({"testType": "AFT", "keyLen": 8 * key_length, "msgLen": 1024, "macLen": mac_bits, "tests": tests})
    return {"acvp/HMAC-SHA-1-1.0.json": acvp_document("HMAC-SHA-1", "1.0", groups, HASHLIB_REFERENCE)}


def aes_ecb_mct(key, text, encrypt):
    """draft-celi-acvp-symmetric, "AES Monte Carlo Test - ECB mode": 1000 chained blocks per round,
    then the key shuffle with the last output bits; 100 rounds."""
    inp, out = ("pt", "ct") if encrypt else ("ct", "pt")
    results = []
    for _ in range(100):
        entry = {"key": ux(key), inp: ux(text)}
        cipher = Cipher(algorithms.AES(key), modes.ECB())
        worker = cipher.encryptor() if encrypt else cipher.decryptor()
        previous, output = b"", text
        for _ in range(1000):
            previous, output = output, worker.update(output)
        entry[out] = ux(output)
        results.append(entry)
        material = {16: output, 24: previous[-8:] + output, 32: previous + output}[len(key)]
        key = bytes(a ^ b for a, b in zip(key, material))
        text = output
    return results


def acvp_aes_ecb():
    r = rng("acvp/ACVP-AES-ECB-1.0")
    groups = []
    for direction in ["encrypt", "decrypt"]:
        for key_bits in [128, 192, 256]:
            tests = []
            for blocks in [1, 2, 3, 5, 10]:
                key, data = r.randbytes(key_bits // 8), r.randbytes(16 * blocks)
                cipher = Cipher(algorithms.AES(key), modes.ECB())
                if direction == "encrypt":
                    tests.append({"key": ux(key), "pt": ux(data), "ct": ux(cipher.encryptor().update(data))})
                else:
                    tests.append({"key": ux(key), "ct": ux(data), "pt": ux(cipher.decryptor().update(data))})
            groups.append({"testType": "AFT", "direction": direction, "keyLen": key_bits, "tests": tests})
    for direction, key_bits in [("encrypt", 128)]:
        key, text = r.randbytes(key_bits // 8), r.randbytes(16)
        name = "pt" if direction == "encrypt" else "ct"
        groups.append({"testType": "MCT", "direction": direction, "keyLen": key_bits,
                       "tests": [{"key": ux(key), name: ux(text), "resultsArray": aes_ecb_mct(key, text, direction == "encrypt")}]})
    return {"acvp/ACVP-AES-ECB-1.0.json": acvp_document("ACVP-AES-ECB", "1.0", groups, PYCA_REFERENCE)}


def acvp_ecdsa_keygen():
    r = rng("acvp/ECDSA-KeyGen-FIPS186-5")
    tests = []
    for _ in range(10):
        numbers = p256_key(r).private_numbers()
        tests.append({"d": "%064X" % numbers.private_value, "qx": "%064X" % numbers.public_numbers.x,
                      "qy": "%064X" % numbers.public_numbers.y})
    groups = [{"testType": "AFT", "curve": "P-256", "secretGenerationMode": "testing candidates", "tests": tests}]
    return {"acvp/ECDSA-KeyGen-FIPS186-5.json": acvp_document("ECDSA", "FIPS186-5", groups, PYCA_REFERENCE, "keyGen")}


def acvp_rsa(keys):
    r = rng("acvp/RSA")
    files = {}
    groups = []
    for key in [keys[0], keys[2]]:
        numbers = key.private_numbers()
        n, e = numbers.public_numbers.n, numbers.public_numbers.e
        k = (n.bit_length() + 7) // 8
        v15, pss = [], []
        for _ in range(4):
            message = r.randbytes(r.randrange(1, 256))
            v15.append({"message": ux(message), "signature": ux(key.sign(message, rsa_padding.PKCS1v15(), hashes.SHA256()))})
            salt = r.randbytes(32)
            sig = pss_sign(key, message, "sha256", salt)
            key.public_key().verify(sig, message, rsa_padding.PSS(rsa_padding.MGF1(hashes.SHA256()), 32), hashes.SHA256())
            pss.append({"message": ux(message), "signature": ux(sig)})
        common = {"testType": "GDT", "modulo": n.bit_length(), "hashAlg": "SHA2-256", "n": "%0*X" % (2 * k, n), "e": "%06X" % e}
        groups.append(dict(common, sigType="pkcs1v1.5", tests=v15))
        groups.append(dict(common, sigType="pss", saltLen=32, maskFunction="mgf1", tests=pss))
    files["acvp/RSA-SigGen-FIPS186-5.json"] = acvp_document("RSA", "FIPS186-5", groups, PYCA_REFERENCE, "sigGen")
    tests = []
    for key in [keys[0]]:
        numbers = key.private_numbers()
        n, d = numbers.public_numbers.n, numbers.d
        k = (n.bit_length() + 7) // 8
        for value in [0, 1, 2, r.randrange(2, n), r.randrange(2, n), n - 1, n, n + 1, (1 << (8 * k)) - 1]:
            test = {"n": "%0*X" % (2 * k, n), "d": "%0*X" % (2 * k, d), "message": "%0*X" % (2 * k, value), "testPassed": value < n}
            if value < n:
                test["signature"] = "%0*X" % (2 * k, pow(value, d, n))
            tests.append(test)
    # The same primitive with the key in CRT form, as the ACVP RSA specification also allows:
    # n, e, p, q, dmp1, dmq1, iqmp and no d.
    crt_tests = []
    for key in [keys[0]]:
        numbers = key.private_numbers()
        n, e, d, p, q = numbers.public_numbers.n, numbers.public_numbers.e, numbers.d, numbers.p, numbers.q
        k = (n.bit_length() + 7) // 8
        half = (p.bit_length() + 7) // 8
        key_fields = {"n": "%0*X" % (2 * k, n), "e": "%06X" % e, "p": "%0*X" % (2 * half, p), "q": "%0*X" % (2 * half, q),
                      "dmp1": "%0*X" % (2 * half, d % (p - 1)), "dmq1": "%0*X" % (2 * half, d % (q - 1)),
                      "iqmp": "%0*X" % (2 * half, pow(q, -1, p))}
        for value in [0, 1, 2, p, q, r.randrange(2, n), r.randrange(2, n), n - 1, n, (1 << (8 * k)) - 1]:
            test = dict(key_fields, message="%0*X" % (2 * k, value), testPassed=value < n)
            if value < n:
                test["signature"] = "%0*X" % (2 * k, pow(value, d, n))
            crt_tests.append(test)
    groups = [{"testType": "AFT", "modulo": 2048, "keyFormat": "standard", "tests": tests},
              {"testType": "AFT", "modulo": 2048, "keyFormat": "crt", "tests": crt_tests}]
    files["acvp/RSA-SignaturePrimitive-2.0.json"] = acvp_document("RSA", "2.0", groups, "Python pow()", "signaturePrimitive")
    return files


def acvp_kts(keys):
    """KTS-OAEP-basic (SP 800-56B rev 2 §9): OAEP with a seeded seed, then the raw RSA operation;
    OpenSSL decrypts every ciphertext before it is recorded. The label A follows the pattern:
    l (32-bit big-endian bits) || uPartyInfo (initiator id) || vPartyInfo (responder id) || label."""
    r = rng("acvp/KTS-IFC-Sp800-56Br2")
    iut_id, server_id = bytes.fromhex("123456ABCD"), bytes.fromhex("434156536964")
    groups = []
    for role in ["responder", "initiator"]:
        for hash_name, hashlib_name, pattern in [("SHA2-256", "sha256", "l||uPartyInfo||vPartyInfo||label"), ("SHA-1", "sha1", "")]:
            tests = []
            for key in [keys[0], keys[1]]:
                numbers = key.private_numbers()
                n, e = numbers.public_numbers.n, numbers.public_numbers.e
                k = (n.bit_length() + 7) // 8
                for _ in range(1):
                    dkm, label = r.randbytes(32), r.randbytes(16)
                    u, v = (server_id, iut_id) if role == "responder" else (iut_id, server_id)
                    a = (256).to_bytes(4, "big") + u + v + label if pattern else b""
                    seed = r.randbytes(hashlib.new(hashlib_name).digest_size)
                    ct = oaep_encrypt(key, dkm, a, hashlib_name, hashlib_name, seed)
                    algorithm = PYCA_HASHES[hash_name.replace("SHA2-", "SHA").replace("SHA-1", "SHA1")]()
                    assert key.decrypt(ct, rsa_padding.OAEP(rsa_padding.MGF1(algorithm), algorithm, a or None)) == dkm
                    prefix = "iut" if role == "responder" else "server"
                    test = {prefix + "N": "%0*X" % (2 * k, n), prefix + "E": "%06X" % e, prefix + "P": "%0*X" % (k, numbers.p),
                            prefix + "Q": "%0*X" % (k, numbers.q), prefix + "D": "%0*X" % (2 * k, numbers.d)}
                    if pattern:  # the CRT form (rsakpg1-crt) in these groups, p and q alone in the others
                        test.update({prefix + "Dmp1": "%0*X" % (k, numbers.dmp1), prefix + "Dmq1": "%0*X" % (k, numbers.dmq1),
                                     prefix + "Iqmp": "%0*X" % (k, numbers.iqmp)})
                        test["ktsParameter"] = {"label": ux(label)}
                    test["serverC" if role == "responder" else "iutC"] = ux(ct)
                    test["dkm"] = ux(dkm)
                    tests.append(test)
            groups.append({"testType": "AFT", "scheme": "KTS-OAEP-basic", "kasRole": role,
                           "keyGenerationMethod": "rsakpg1-crt" if pattern else "rsakpg1-basic",
                           "modulo": 2048, "l": 256, "iutId": ux(iut_id), "serverId": ux(server_id),
                           "ktsConfiguration": {"hashAlg": hash_name, "associatedDataPattern": pattern,
                                                "encoding": "concatenation" if pattern else "none"}, "tests": tests})
    return {"acvp/KTS-IFC-Sp800-56Br2.json": acvp_document("KTS-IFC", "Sp800-56Br2", groups, PYCA_REFERENCE)}


def acvp_kda():
    """KDA HKDF (SP 800-56C rev 2): Z' = z || t, the salt as given, fixedInfo = uPartyInfo ||
    vPartyInfo (partyId || ephemeralData) [|| t] || l (32-bit big-endian bits)."""
    r = rng("acvp/KDA-HKDF-Sp800-56Cr2")
    groups = []
    for hash_name, pyca_name, salt_method, hybrid in [("SHA2-256", "SHA256", "default", False), ("SHA2-256", "SHA256", "random", True),
                                                      ("SHA-1", "SHA1", "random", False), ("SHA2-512", "SHA512", "default", True)]:
        algorithm = PYCA_HASHES[pyca_name]
        bits = 8 * r.choice([32, 64, 100])
        salt_length = algorithm.block_size if hasattr(algorithm, "block_size") else 64
        pattern = "uPartyInfo||vPartyInfo||t||l" if hybrid else "uPartyInfo||vPartyInfo||l"
        tests = []
        for index in range(5):
            z, t = r.randbytes(r.choice([32, 48, 66])), r.randbytes(16)
            salt = bytes(salt_length) if salt_method == "default" else r.randbytes(salt_length)
            u, v = {"partyId": ux(r.randbytes(16))}, {"partyId": ux(r.randbytes(16))}
            if index % 2 == 1:
                u["ephemeralData"] = ux(r.randbytes(33))
            if index >= 3:
                v["ephemeralData"] = ux(r.randbytes(33))
            info = bytes.fromhex(u["partyId"] + u.get("ephemeralData", "") + v["partyId"] + v.get("ephemeralData", ""))
            info += (t if hybrid else b"") + bits.to_bytes(4, "big")
            dkm = HKDF(algorithm=algorithm(), length=bits // 8, salt=salt, info=info).derive(z + (t if hybrid else b""))
            parameter = {"kdfType": "hkdf", "salt": ux(salt), "z": ux(z), "l": bits}
            if hybrid:
                parameter["t"] = ux(t)
            tests.append({"kdfParameter": parameter, "fixedInfoPartyU": u, "fixedInfoPartyV": v, "dkm": ux(dkm)})
        configuration = {"kdfType": "hkdf", "l": bits, "saltLen": 8 * salt_length, "saltMethod": salt_method,
                         "fixedInfoPattern": pattern, "fixedInfoEncoding": "concatenation", "hmacAlg": hash_name}
        groups.append({"testType": "AFT", "kdfConfiguration": configuration, "tests": tests})
    # VAL: the given dkm is right exactly when testPassed (one bit flipped otherwise).
    val = []
    for index, test in enumerate(groups[0]["tests"]):
        test = json.loads(json.dumps(test))
        if index % 2 == 1:
            dkm = bytearray(bytes.fromhex(test["dkm"]))
            dkm[r.randrange(len(dkm))] ^= 1 << r.randrange(8)
            test["dkm"] = ux(bytes(dkm))
        test["testPassed"] = index % 2 == 0
        val.append(test)
    groups.append({"testType": "VAL", "kdfConfiguration": dict(groups[0]["kdfConfiguration"]), "tests": val})
    return {"acvp/KDA-HKDF-Sp800-56Cr2.json": acvp_document("KDA", "Sp800-56Cr2", groups, PYCA_REFERENCE, "HKDF")}


def acvp_vectors():
    keys = rsa_keys()
    files = {}
    for producer in [acvp_sha, acvp_hmac, acvp_aes_ecb, acvp_ecdsa_keygen, acvp_kda]:
        files.update(producer())
    files.update(acvp_rsa(keys))
    files.update(acvp_kts(keys))
    return files


def render_acvp(doc):
    """An ACVP combined file: the acvVersion header, then one group header and one test per line."""
    head = {k: v for k, v in doc.items() if k != "testGroups"}
    lines = ["[", ' {"acvVersion": "1.0"},', " " + json.dumps(head)[:-1] + ', "testGroups": [']
    groups = []
    for group in doc["testGroups"]:
        fields = {k: v for k, v in group.items() if k != "tests"}
        tests = ",\n".join("   " + json.dumps(t, separators=(",", ":")) for t in group["tests"])
        groups.append("  " + json.dumps(fields)[:-1] + ', "tests": [\n' + tests + "\n  ]}")
    lines.append(",\n".join(groups))
    lines.append(" ]}")
    lines.append("]")
    return "\n".join(lines) + "\n"


def render(doc):
    """One case per line: diffable, and compact enough for long hex."""
    head = {k: v for k, v in doc.items() if k != "cases"}
    lines = ["{"]
    for key, value in head.items():
        lines.append(" %s: %s," % (json.dumps(key), json.dumps(value)))
    lines.append(' "cases": [')
    rendered = [json.dumps(c, sort_keys=True, separators=(",", ":")) for c in doc["cases"]]
    lines.append(",\n".join("  " + c for c in rendered))
    lines.append(" ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    check = "--check" in sys.argv
    files = {}
    import generate_tls_primitives as tls  # imports this module's helpers, so not at the top
    import generate_x509 as x509_paths
    for producer in [digests, hmacs, pbkdf2, hkdf, x963, aes_cbc, aes_ctr, p256, rsa_vectors, acvp_vectors,
                     tls.aead, tls.x25519_vectors, tls.p384_vectors, x509_paths.x509_vectors]:
        files.update(producer())
    stale = []
    for relative, doc in sorted(files.items()):
        path = os.path.join(HERE, relative)
        text = render_acvp(doc) if "testGroups" in doc else render(doc)
        if check:
            with open(path) as handle:
                if handle.read() != text:
                    stale.append(relative)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(text)
        count = sum(len(g["tests"]) for g in doc["testGroups"]) if "testGroups" in doc else len(doc["cases"])
        print("wrote %s: %d cases" % (relative, count))
    if stale:
        print("stale: " + ", ".join(stale))
        sys.exit(1)


if __name__ == "__main__":
    protocols_fresh = __import__("generate_protocols").main()  # Vectors/protocols, written by generate_protocols.py
    main()
    sys.exit(0 if protocols_fresh else 1)
