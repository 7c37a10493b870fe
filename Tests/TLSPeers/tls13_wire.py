"""TLS 1.3 wire format, key schedule and record protection (RFC 8446), for the hostile test server.

Written from the RFC for testing our own client; it is no general-purpose TLS stack: it has no
PSK, no early data, no client authentication and no TLS 1.2, and it trusts nothing it parses
beyond the bounds checked here.
"""
import hashlib
import hmac
import os
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric import ec, x25519
from cryptography.hazmat.primitives.ciphers.aead import AESCCM, AESGCM, ChaCha20Poly1305
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

# §5.1 ContentType
CHANGE_CIPHER_SPEC, ALERT, HANDSHAKE, APPLICATION_DATA = 20, 21, 22, 23
CONTENT_NAMES = {20: "change_cipher_spec", 21: "alert", 22: "handshake", 23: "application_data"}

# §4 HandshakeType (0 is TLS 1.2's hello_request, kept for the renegotiation mode)
HELLO_REQUEST, CLIENT_HELLO, SERVER_HELLO, NEW_SESSION_TICKET = 0, 1, 2, 4
ENCRYPTED_EXTENSIONS, CERTIFICATE, CERTIFICATE_VERIFY, FINISHED = 8, 11, 15, 20
KEY_UPDATE, MESSAGE_HASH = 24, 254
HANDSHAKE_NAMES = {0: "hello_request", 1: "client_hello", 2: "server_hello", 4: "new_session_ticket",
                   5: "end_of_early_data", 8: "encrypted_extensions", 11: "certificate",
                   13: "certificate_request", 15: "certificate_verify", 20: "finished",
                   24: "key_update", 254: "message_hash"}

# §6 AlertDescription
CLOSE_NOTIFY, UNEXPECTED_MESSAGE, BAD_RECORD_MAC, RECORD_OVERFLOW = 0, 10, 20, 22
HANDSHAKE_FAILURE, ILLEGAL_PARAMETER, DECODE_ERROR, DECRYPT_ERROR = 40, 47, 50, 51
PROTOCOL_VERSION, INTERNAL_ERROR, USER_CANCELED, MISSING_EXTENSION = 70, 80, 90, 109
ALERT_NAMES = {0: "close_notify", 10: "unexpected_message", 20: "bad_record_mac", 21: "decryption_failed",
               22: "record_overflow", 40: "handshake_failure", 42: "bad_certificate",
               43: "unsupported_certificate", 44: "certificate_revoked", 45: "certificate_expired",
               46: "certificate_unknown", 47: "illegal_parameter", 48: "unknown_ca", 49: "access_denied",
               50: "decode_error", 51: "decrypt_error", 70: "protocol_version", 71: "insufficient_security",
               80: "internal_error", 86: "inappropriate_fallback", 90: "user_canceled",
               100: "no_renegotiation", 109: "missing_extension", 110: "unsupported_extension",
               112: "unrecognized_name", 113: "bad_certificate_status_response", 115: "unknown_psk_identity",
               116: "certificate_required", 120: "no_application_protocol"}

# §4.2 ExtensionType
EXT_SERVER_NAME, EXT_SUPPORTED_GROUPS, EXT_SIGNATURE_ALGORITHMS, EXT_ALPN = 0, 10, 13, 16
EXT_SUPPORTED_VERSIONS, EXT_KEY_SHARE = 43, 51

TLS13, TLS12, TLS11 = 0x0304, 0x0303, 0x0302

# §5.1, §5.2, §5.4: record size limits
MAX_PLAINTEXT = 2 ** 14
MAX_INNER_PLAINTEXT = 2 ** 14 + 1
MAX_CIPHERTEXT = 2 ** 14 + 256

# §4.1.3: the ServerHello.random of a HelloRetryRequest, SHA-256("HelloRetryRequest")
HRR_RANDOM = bytes.fromhex("cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c")
assert HRR_RANDOM == hashlib.sha256(b"HelloRetryRequest").digest()
# §4.1.3: the last 8 bytes of ServerHello.random of a TLS 1.3 server negotiating an older version
DOWNGRADE_TLS12 = b"DOWNGRD\x01"
DOWNGRADE_TLS11 = b"DOWNGRD\x00"

# §4.2.3 SignatureScheme values used here
ECDSA_P256_SHA256, ECDSA_P384_SHA384, ECDSA_P521_SHA512, ECDSA_SHA1 = 0x0403, 0x0503, 0x0603, 0x0203
RSA_PSS_RSAE_SHA256, RSA_PSS_RSAE_SHA384, RSA_PSS_RSAE_SHA512 = 0x0804, 0x0805, 0x0806
RSA_PKCS1_SHA256 = 0x0401

# §4.2.7 NamedGroup values we can compute with, in our order of preference
X25519, SECP256R1, SECP384R1 = 0x001D, 0x0017, 0x0018
GROUP_NAMES = {X25519: "x25519", SECP256R1: "secp256r1", SECP384R1: "secp384r1", 0x0019: "secp521r1",
               0x001E: "x448", 0x0100: "ffdhe2048"}
OUR_GROUPS = (X25519, SECP256R1, SECP384R1)


class TlsError(Exception):
    """A rule of the protocol broken by the peer: the alert to send and why."""

    def __init__(self, alert, reason):
        super().__init__(f"{ALERT_NAMES.get(alert, alert)}: {reason}")
        self.alert = alert
        self.reason = reason


def alert_text(description):
    return f"alert {description} {ALERT_NAMES.get(description, 'unknown')}"


# ---------------------------------------------------------------- encoding (§3 presentation language)

def u8(n):
    return n.to_bytes(1, "big")


def u16(n):
    return n.to_bytes(2, "big")


def u24(n):
    return n.to_bytes(3, "big")


def vec8(data):
    return u8(len(data)) + data


def vec16(data):
    return u16(len(data)) + data


def vec24(data):
    return u24(len(data)) + data


def handshake_message(msg_type, body):
    """§4: Handshake { msg_type, uint24 length, body }."""
    return u8(msg_type) + u24(len(body)) + body


def extension(ext_type, body):
    """§4.2: Extension { extension_type, opaque extension_data<0..2^16-1> }."""
    return u16(ext_type) + vec16(body)


def record_header(content_type, length, version=TLS12):
    """§5.1: TLSPlaintext/TLSCiphertext header; legacy_record_version is 0x0303."""
    return u8(content_type) + u16(version) + u16(length)


class Reader:
    """Bounded parsing: every read past the end is a decode_error (§3, §6)."""

    def __init__(self, data):
        self.data = bytes(data)
        self.pos = 0

    def take(self, n):
        if n > len(self.data) - self.pos:
            raise TlsError(DECODE_ERROR, "truncated field")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def uint(self, size):
        return int.from_bytes(self.take(size), "big")

    def vector(self, length_size, minimum=0):
        length = self.uint(length_size)
        if length < minimum:
            raise TlsError(DECODE_ERROR, "vector shorter than its minimum")
        return self.take(length)

    def done(self):
        return self.pos == len(self.data)

    def expect_end(self):
        if not self.done():
            raise TlsError(DECODE_ERROR, "trailing bytes")


def u16_list(data):
    reader = Reader(data)
    if len(data) % 2:
        raise TlsError(DECODE_ERROR, "odd length in a list of 16-bit values")
    return [reader.uint(2) for _ in range(len(data) // 2)]


# ---------------------------------------------------------------- cipher suites (§B.4)

@dataclass(frozen=True)
class CipherSuite:
    code: int
    name: str
    key_length: int
    hash_name: str
    tag_length: int = 16

    @property
    def hash_length(self):
        return hashlib.new(self.hash_name).digest_size

    def aead(self, key):
        if self.name.startswith("TLS_AES_128_CCM"):
            return AESCCM(key, tag_length=self.tag_length)
        if "CHACHA20" in self.name:
            return ChaCha20Poly1305(key)
        return AESGCM(key)

    def hash(self, data):
        return hashlib.new(self.hash_name, data).digest()


SUITES = {s.code: s for s in (
    CipherSuite(0x1301, "TLS_AES_128_GCM_SHA256", 16, "sha256"),
    CipherSuite(0x1302, "TLS_AES_256_GCM_SHA384", 32, "sha384"),
    CipherSuite(0x1303, "TLS_CHACHA20_POLY1305_SHA256", 32, "sha256"),
    CipherSuite(0x1304, "TLS_AES_128_CCM_SHA256", 16, "sha256"),
    CipherSuite(0x1305, "TLS_AES_128_CCM_8_SHA256", 16, "sha256", tag_length=8),
)}
PREFERRED_SUITES = (0x1301, 0x1302, 0x1303)


# ---------------------------------------------------------------- key schedule (§7.1, HKDF of RFC 5869)

def hkdf_extract(hash_name, salt, ikm):
    return hmac.new(salt, ikm, hash_name).digest()


def hkdf_expand(hash_name, prk, info, length):
    output, block, counter = b"", b"", 1
    while len(output) < length:
        block = hmac.new(prk, block + info + u8(counter), hash_name).digest()
        output += block
        counter += 1
    return output[:length]


def hkdf_expand_label(suite, secret, label, context, length):
    """§7.1: HkdfLabel { uint16 length, opaque label<7..255> = "tls13 " + Label, opaque context<0..255> }."""
    info = u16(length) + vec8(b"tls13 " + label) + vec8(context)
    return hkdf_expand(suite.hash_name, secret, info, length)


def derive_secret(suite, secret, label, transcript_hash):
    """§7.1: Derive-Secret(Secret, Label, Messages) with the transcript hash already computed."""
    return hkdf_expand_label(suite, secret, label, transcript_hash, suite.hash_length)


class KeySchedule:
    """§7.1 without a PSK: Early Secret = HKDF-Extract(0, 0), then the handshake and master secrets."""

    def __init__(self, suite):
        self.suite = suite
        self.zeros = bytes(suite.hash_length)
        self.empty_hash = suite.hash(b"")
        self.early = hkdf_extract(suite.hash_name, self.zeros, self.zeros)
        self.handshake = None

    def handshake_traffic_secrets(self, shared_secret, hello_hash):
        """Returns (client, server) handshake traffic secrets from the (EC)DHE secret and Hash(CH..SH)."""
        derived = derive_secret(self.suite, self.early, b"derived", self.empty_hash)
        self.handshake = hkdf_extract(self.suite.hash_name, derived, shared_secret)
        return (derive_secret(self.suite, self.handshake, b"c hs traffic", hello_hash),
                derive_secret(self.suite, self.handshake, b"s hs traffic", hello_hash))

    def application_traffic_secrets(self, server_finished_hash):
        """Returns (client, server) application traffic secrets from Hash(CH..server Finished)."""
        derived = derive_secret(self.suite, self.handshake, b"derived", self.empty_hash)
        master = hkdf_extract(self.suite.hash_name, derived, self.zeros)
        return (derive_secret(self.suite, master, b"c ap traffic", server_finished_hash),
                derive_secret(self.suite, master, b"s ap traffic", server_finished_hash))


def finished_verify_data(suite, base_key, transcript_hash):
    """§4.4.4: HMAC(finished_key, Transcript-Hash(...)), finished_key = HKDF-Expand-Label(base, "finished", "", Hash.length)."""
    finished_key = hkdf_expand_label(suite, base_key, b"finished", b"", suite.hash_length)
    return hmac.new(finished_key, transcript_hash, suite.hash_name).digest()


class Transcript:
    """§4.4.1: the concatenated handshake messages, hashed on demand."""

    def __init__(self):
        self.messages = []

    def add(self, message):
        self.messages.append(bytes(message))

    def hash(self, suite, without_last=0):
        kept = self.messages[:len(self.messages) - without_last]
        return suite.hash(b"".join(kept))

    def replace_first_client_hello(self, suite):
        """§4.4.1: after a HelloRetryRequest, ClientHello1 becomes message_hash(Hash(ClientHello1))."""
        self.messages = [handshake_message(MESSAGE_HASH, suite.hash(b"".join(self.messages)))]


# ---------------------------------------------------------------- record protection (§5.2, §5.3, §7.2, §7.3)

class RecordProtection:
    """One direction's traffic key, IV and sequence number."""

    def __init__(self, suite, secret):
        self.suite = suite
        self.secret = secret
        self.aead = suite.aead(hkdf_expand_label(suite, secret, b"key", b"", suite.key_length))
        self.iv = hkdf_expand_label(suite, secret, b"iv", b"", 12)
        self.sequence = 0

    def nonce(self):
        """§5.3: the 64-bit sequence number, left-padded to iv_length, XORed with the IV."""
        padded = self.sequence.to_bytes(len(self.iv), "big")
        return bytes(a ^ b for a, b in zip(padded, self.iv))

    def seal(self, content_type, content, padding=0, outer_type=APPLICATION_DATA):
        """§5.2: TLSInnerPlaintext { content, type, zeros }, encrypted with the header as AAD."""
        inner = bytes(content) + u8(content_type) + bytes(padding)
        header = record_header(outer_type, len(inner) + self.suite.tag_length)
        sealed = self.aead.encrypt(self.nonce(), inner, header)
        self.sequence += 1
        return header + sealed

    def open(self, header, body):
        """Returns (inner content type, content); bad_record_mac on a wrong tag (§5.2)."""
        try:
            inner = self.aead.decrypt(self.nonce(), bytes(body), bytes(header))
        except InvalidTag:
            raise TlsError(BAD_RECORD_MAC, "record failed authentication") from None
        self.sequence += 1
        if len(inner) > MAX_INNER_PLAINTEXT:
            raise TlsError(RECORD_OVERFLOW, "TLSInnerPlaintext over 2^14 + 1 bytes")
        end = len(inner.rstrip(b"\x00"))
        if end == 0:
            raise TlsError(UNEXPECTED_MESSAGE, "record with no non-zero content type")  # §5.4
        return inner[end - 1], inner[:end - 1]

    def next_generation(self):
        """§7.2: application_traffic_secret_N+1 = HKDF-Expand-Label(secret_N, "traffic upd", "", Hash.length)."""
        secret = hkdf_expand_label(self.suite, self.secret, b"traffic upd", b"", self.suite.hash_length)
        return RecordProtection(self.suite, secret)


# ---------------------------------------------------------------- key exchange (§4.2.8, §7.4)

class KeyShare:
    """Our ephemeral key for one group and the shared secret with the client's share."""

    def __init__(self, group):
        self.group = group
        if group == X25519:
            self.private = x25519.X25519PrivateKey.generate()
        else:
            self.private = ec.generate_private_key(self.curve())

    def curve(self):
        return ec.SECP256R1() if self.group == SECP256R1 else ec.SECP384R1()

    def public_bytes(self):
        if self.group == X25519:
            return self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return self.private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)

    def shared_secret(self, peer):
        """§7.4.1/§7.4.2: the x-coordinate (ECDHE) or the X25519 output; bad shares are illegal_parameter."""
        try:
            if self.group == X25519:
                if len(peer) != 32:
                    raise ValueError("X25519 share is not 32 bytes")
                return self.private.exchange(x25519.X25519PublicKey.from_public_bytes(peer))
            size = 1 + 2 * ((self.curve().key_size + 7) // 8)
            if len(peer) != size or peer[0] != 4:  # §4.2.8.2: uncompressed points only
                raise ValueError("not an uncompressed point of the right size")
            point = ec.EllipticCurvePublicKey.from_encoded_point(self.curve(), peer)
            return self.private.exchange(ec.ECDH(), point)
        except ValueError as error:  # cryptography also refuses off-curve points and an all-zero X25519 output
            raise TlsError(ILLEGAL_PARAMETER, f"bad key share: {error}") from None


# ---------------------------------------------------------------- ClientHello (§4.1.2)

@dataclass
class ClientHello:
    raw: bytes
    legacy_version: int = 0
    random: bytes = b""
    session_id: bytes = b""
    cipher_suites: list = field(default_factory=list)
    compression_methods: bytes = b""
    extension_types: list = field(default_factory=list)
    supported_versions: list = field(default_factory=list)
    supported_groups: list = field(default_factory=list)
    key_shares: dict = field(default_factory=dict)
    signature_algorithms: list = field(default_factory=list)
    alpn: list = field(default_factory=list)
    server_name: str = ""


def parse_client_hello(raw):
    """Parses a whole ClientHello handshake message (header included)."""
    reader = Reader(raw[4:])
    hello = ClientHello(raw=bytes(raw))
    hello.legacy_version = reader.uint(2)
    hello.random = reader.take(32)
    hello.session_id = reader.vector(1)
    if len(hello.session_id) > 32:
        raise TlsError(ILLEGAL_PARAMETER, "legacy_session_id over 32 bytes")
    hello.cipher_suites = u16_list(reader.vector(2, minimum=2))
    hello.compression_methods = reader.vector(1, minimum=1)
    extensions = Reader(reader.vector(2)) if not reader.done() else Reader(b"")
    reader.expect_end()
    while not extensions.done():
        ext_type, body = extensions.uint(2), extensions.vector(2)
        if ext_type in hello.extension_types:
            raise TlsError(ILLEGAL_PARAMETER, f"extension {ext_type} twice")  # §4.2
        hello.extension_types.append(ext_type)
        parse_client_extension(hello, ext_type, body)
    return hello


def parse_client_extension(hello, ext_type, body):
    reader = Reader(body)
    if ext_type == EXT_SUPPORTED_VERSIONS:  # §4.2.1
        hello.supported_versions = u16_list(reader.vector(1, minimum=2))
    elif ext_type == EXT_SUPPORTED_GROUPS:  # §4.2.7
        hello.supported_groups = u16_list(reader.vector(2, minimum=2))
    elif ext_type == EXT_SIGNATURE_ALGORITHMS:  # §4.2.3
        hello.signature_algorithms = u16_list(reader.vector(2, minimum=2))
    elif ext_type == EXT_KEY_SHARE:  # §4.2.8
        shares = Reader(reader.vector(2))
        while not shares.done():
            group, key = shares.uint(2), shares.vector(2, minimum=1)
            if group in hello.key_shares:
                raise TlsError(ILLEGAL_PARAMETER, "two key shares for one group")
            hello.key_shares[group] = key
    elif ext_type == EXT_ALPN:  # RFC 7301 §3.1
        names = Reader(reader.vector(2, minimum=2))
        while not names.done():
            hello.alpn.append(names.vector(1, minimum=1))
    elif ext_type == EXT_SERVER_NAME:  # RFC 6066 §3
        names = Reader(reader.vector(2, minimum=1))
        while not names.done():
            name_type, name = names.uint(1), names.vector(2, minimum=1)
            if name_type == 0:
                hello.server_name = name.decode("ascii", "replace")
    else:
        return
    reader.expect_end()


# ---------------------------------------------------------------- server messages

def server_hello_body(random, session_id, cipher_suite, extensions, legacy_version=TLS12, compression=0):
    """§4.1.3: ServerHello (also the HelloRetryRequest, with HRR_RANDOM)."""
    return (u16(legacy_version) + random + vec8(session_id) + u16(cipher_suite) + u8(compression)
            + vec16(b"".join(extensions)))


def supported_versions_extension(version=TLS13):
    return extension(EXT_SUPPORTED_VERSIONS, u16(version))  # §4.2.1: selected_version


def key_share_extension(group, key_exchange):
    return extension(EXT_KEY_SHARE, u16(group) + vec16(key_exchange))  # §4.2.8: KeyShareServerHello


def hrr_key_share_extension(group):
    return extension(EXT_KEY_SHARE, u16(group))  # §4.2.8: KeyShareHelloRetryRequest


def alpn_extension(protocol):
    return extension(EXT_ALPN, vec16(vec8(protocol)))  # RFC 7301 §3.1: exactly one name


def certificate_body(certificates_der, context=b""):
    """§4.4.2: Certificate { certificate_request_context, CertificateEntry certificate_list<0..2^24-1> }."""
    entries = b"".join(vec24(der) + vec16(b"") for der in certificates_der)
    return vec8(context) + vec24(entries)


def certificate_verify_content(transcript_hash):
    """§4.4.3: 64 spaces, the context string, a zero byte, then Transcript-Hash(CH..Certificate)."""
    return b"\x20" * 64 + b"TLS 1.3, server CertificateVerify" + b"\x00" + transcript_hash


def random_bytes(n):
    return os.urandom(n)
