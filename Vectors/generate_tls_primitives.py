#!/usr/bin/env python3
"""The primitives under TLS, recorded by generate.py (which imports this module): AES-GCM,
ChaCha20-Poly1305, X25519, and P-384 ECDH and ECDSA verification. Every expected value comes
from pyca/cryptography (OpenSSL); inputs come from the same fixed seeds as the rest of
generate.py, so a run reproduces the files byte for byte.
"""

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric import x25519
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from generate import PYCA_REFERENCE, aes_lengths, case, document, hx, rng

P384_ORDER = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973
P384_PRIME = 2 ** 384 - 2 ** 128 - 2 ** 96 + 2 ** 32 - 1


def aead_lengths():
    """The AES lengths, and long ones that cross the 4 KiB first-round cache and TLS's 16 KiB."""
    return aes_lengths() + [4095, 4096, 4097, 5000, 8191, 16384, 16384 + 256, 20000]


def gcm_seal(key, nonce, aad, plaintext):
    encryptor = Cipher(algorithms.AES(key), modes.GCM(nonce)).encryptor()
    encryptor.authenticate_additional_data(aad)
    ciphertext = encryptor.update(plaintext) + encryptor.finalize()
    return ciphertext, encryptor.tag


def flipped(r, data):
    data = bytearray(data)
    bit = r.randrange(8 * len(data))
    data[bit // 8] ^= 1 << (bit % 8)
    return bytes(data)


def aead_cases(r, seal, key_lengths, nonce_lengths):
    cases = []
    for key_length in key_lengths:
        for length in aead_lengths():
            key, nonce = r.randbytes(key_length), r.randbytes(r.choice(nonce_lengths))
            aad, plaintext = r.randbytes(r.choice([0, 1, 13, 16, 17, 100])), r.randbytes(length)
            ciphertext, tag = seal(key, nonce, aad, plaintext)
            case(cases, "%d-bit key, %d-byte nonce, %d-byte aad, %d bytes" % (8 * key_length, len(nonce), len(aad), length),
                 {"key": hx(key), "nonce": hx(nonce), "aad": hx(aad), "pt": hx(plaintext)}, {"ct": hx(ciphertext), "tag": hx(tag)})
        # Forgeries: a bit flipped in the tag, the ciphertext or the aad; a truncated tag.
        for what in ["tag", "ct", "aad", "short tag"]:
            for _ in range(8):
                key, nonce = r.randbytes(key_length), r.randbytes(12)
                aad, plaintext = r.randbytes(r.choice([1, 20])), r.randbytes(r.choice([1, 33, 300]))
                ciphertext, tag = seal(key, nonce, aad, plaintext)
                if what == "tag":
                    tag = flipped(r, tag)
                elif what == "ct":
                    ciphertext = flipped(r, ciphertext)
                elif what == "aad":
                    aad = flipped(r, aad)
                else:
                    tag = tag[:r.randrange(1, 16)]
                case(cases, "%d-bit key, %s changed" % (8 * key_length, what),
                     {"key": hx(key), "nonce": hx(nonce), "aad": hx(aad), "ct": hx(ciphertext), "tag": hx(tag)}, {}, "invalid")
    return cases


def aead():
    files = {}
    cases = aead_cases(rng("aes/gcm"), gcm_seal, [16, 24, 32], [12, 12, 12, 8, 16, 60, 128])
    files["aes/aes-gcm.json"] = document("AES-GCM", PYCA_REFERENCE, cases)

    def chacha_seal(key, nonce, aad, plaintext):
        sealed = ChaCha20Poly1305(key).encrypt(nonce, plaintext, aad)
        return sealed[:-16], sealed[-16:]
    cases = aead_cases(rng("aead/chacha20-poly1305"), chacha_seal, [32], [12])
    files["aead/chacha20-poly1305.json"] = document("CHACHA20-POLY1305", PYCA_REFERENCE, cases)
    return files


def x25519_vectors():
    r = rng("x25519")
    cases = []
    for index in range(60):
        private = x25519.X25519PrivateKey.from_private_bytes(r.randbytes(32))
        peer = x25519.X25519PrivateKey.from_private_bytes(r.randbytes(32)).public_key()
        public = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        peer_bytes = peer.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        shared = private.exchange(peer)
        private_bytes = private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                              serialization.NoEncryption())
        case(cases, "agreement %d" % index, {"private": hx(private_bytes), "peer": hx(peer_bytes)},
             {"public": hx(public), "shared": hx(shared)})
    # RFC 7748 §6.1: an all-zero shared secret (a small-order peer) must be refused, as TLS
    # 1.3 requires (RFC 8446 §7.4.2).
    for peer_bytes in [bytes(32), bytes([1]) + bytes(31), bytes.fromhex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800")]:
        private_bytes = r.randbytes(32)
        case(cases, "small-order peer %s…" % hx(peer_bytes[:4]), {"private": hx(private_bytes), "peer": hx(peer_bytes)}, {}, "invalid")
    return {"x25519/x25519.json": document("X25519", PYCA_REFERENCE, cases)}


def p384_point(key):
    return key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def p384_vectors():
    files = {}
    r = rng("p384/ecdh")
    cases = []
    for index in range(40):
        private = ec.derive_private_key(r.randrange(1, P384_ORDER), ec.SECP384R1())
        peer = ec.derive_private_key(r.randrange(1, P384_ORDER), ec.SECP384R1()).public_key()
        shared = private.exchange(ec.ECDH(), peer)
        compressed = index % 4 == 3
        peer_bytes = peer.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint if compressed
                                       else serialization.PublicFormat.UncompressedPoint)
        scalar = private.private_numbers().private_value.to_bytes(48, "big")
        case(cases, "agreement %d%s" % (index, ", compressed peer" if compressed else ""),
             {"private": hx(scalar), "peer": hx(peer_bytes)}, {"public": hx(p384_point(private.public_key())), "shared": hx(shared)})
    # Invalid peers: off the curve, a coordinate ≥ p, the point at infinity, a wrong length.
    good = p384_point(ec.derive_private_key(r.randrange(1, P384_ORDER), ec.SECP384R1()).public_key())
    y = int.from_bytes(good[49:], "big")
    invalid = [("y + 1: off the curve", good[:49] + ((y + 1) % P384_PRIME).to_bytes(48, "big")),
               ("x = p", b"\x04" + P384_PRIME.to_bytes(48, "big") + good[49:]),
               ("infinity", b"\x00"), ("truncated", good[:-1]), ("a P-256-sized point", good[:65])]
    for comment, peer_bytes in invalid:
        case(cases, comment, {"private": hx(r.randrange(1, P384_ORDER).to_bytes(48, "big")), "peer": hx(peer_bytes)}, {}, "invalid")
    files["p384/ecdh-p384.json"] = document("ECDH-P384", PYCA_REFERENCE, cases)

    r = rng("p384/ecdsa")
    cases = []
    for index in range(50):
        key = ec.derive_private_key(r.randrange(1, P384_ORDER), ec.SECP384R1())
        hash_name = ["SHA256", "SHA384", "SHA512"][index % 3]
        algorithm = {"SHA256": hashes.SHA256, "SHA384": hashes.SHA384, "SHA512": hashes.SHA512}[hash_name]
        message = r.randbytes(r.randrange(0, 300))
        der = key.sign(message, ec.ECDSA(algorithm(), deterministic_signing=True))  # RFC 6979: reproducible
        public = hx(p384_point(key.public_key()))
        case(cases, "%s, %d-byte message" % (hash_name, len(message)),
             {"public": public, "hash": hash_name, "msg": hx(message), "sig": hx(der)}, {})
        signature_r, signature_s = decode_dss_signature(der)
        wrong = [("changed message", hx(message + b"\x00"), hx(der)),
                 ("s + n", hx(message), hx(encode_dss_signature(signature_r, signature_s + P384_ORDER))),
                 ("r and s swapped", hx(message), hx(encode_dss_signature(signature_s, signature_r)))]
        comment, wrong_message, wrong_signature = wrong[index % 3]
        case(cases, "%s, %s" % (hash_name, comment), {"public": public, "hash": hash_name, "msg": wrong_message, "sig": wrong_signature},
             {}, "invalid")
    files["p384/ecdsa-p384-verify.json"] = document("ECDSA-P384-VERIFY", PYCA_REFERENCE, cases)
    return files
