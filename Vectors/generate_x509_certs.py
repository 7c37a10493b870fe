#!/usr/bin/env python3
"""Certificate construction for generate_x509.py: seeded keys, a builder that follows the WebPKI
server profile unless told otherwise (one keyword per property, so a case can break exactly one),
a few DER tools to re-sign or damage a certificate after pyca/cryptography has built it, and the
two independent verdicts (pyca's ServerVerifier, and `openssl verify` when it is on the PATH).

Every signature is reproducible: RSA PKCS #1 v1.5 is deterministic, ECDSA is signed with RFC 6979
nonces (`CertificateBuilder.sign(..., ecdsa_deterministic=True)`, or `ECDSA(h,
deterministic_signing=True)` when a TBS is re-signed here), and RSA-PSS salts are drawn from the
seeded generator and applied by generate.py's `pss_sign`.
"""

import base64
import datetime
import ipaddress
import math
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from cryptography.x509.verification import PolicyBuilder, Store

from generate import probable_prime, pss_sign, rng

UTC = datetime.timezone.utc


def at(year, month, day, hour=0, minute=0, second=0):
    return int(datetime.datetime(year, month, day, hour, minute, second, tzinfo=UTC).timestamp())


NOT_BEFORE, NOT_AFTER, NOW = at(2025, 1, 1), at(2030, 1, 1), at(2026, 6, 1)
HASH = {"SHA1": hashes.SHA1, "SHA256": hashes.SHA256, "SHA384": hashes.SHA384, "SHA512": hashes.SHA512}
SERVER_AUTH, CLIENT_AUTH = ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH
UNKNOWN_OID = x509.ObjectIdentifier("1.3.6.1.4.1.55555.1.1")  # a private arc no validator knows


class Keys:
    """EC keys are drawn fresh for every certificate; RSA keys (slow to find in Python) are a
    small fixed pool, handed out by role so that no chain reuses one key at two levels."""

    ROLES = {"root": 0, "int": 1, "int2": 2, "leaf": 3, "other": 4}

    def __init__(self):
        self.r = rng("x509/keys")
        self.rsa = {bits: [self.rsa_key(bits) for _ in range(count)] for bits, count in [(2048, 5), (3072, 1), (1024, 1)]}

    def rsa_key(self, bits):
        p, q = probable_prime(self.r, bits // 2), probable_prime(self.r, bits // 2)
        e, n = 65537, p * q
        d = pow(e, -1, (p - 1) * (q - 1) // math.gcd(p - 1, q - 1))
        return rsa.RSAPrivateNumbers(p, q, d, rsa.rsa_crt_dmp1(d, p), rsa.rsa_crt_dmq1(d, q), rsa.rsa_crt_iqmp(p, q),
                                     rsa.RSAPublicNumbers(e, n)).private_key()

    def get(self, kind, role):
        if kind == "P-256":
            return ec.derive_private_key(self.r.randrange(1, 2 ** 255), ec.SECP256R1())
        if kind == "P-384":
            return ec.derive_private_key(self.r.randrange(1, 2 ** 383), ec.SECP384R1())
        bits = int(kind.split("-")[1])
        pool = self.rsa[bits]
        return pool[self.ROLES[role] % len(pool)]


def kind_of(key):
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return {"secp256r1": "P-256", "secp384r1": "P-384", "secp521r1": "P-521"}[key.curve.name]
    return "RSA-%d" % key.key_size


def default_hash(key):
    return "SHA384" if kind_of(key) == "P-384" else "SHA256"


def name(common_name, organization="SwiftMFA Vectors"):
    attributes = [x509.NameAttribute(NameOID.ORGANIZATION_NAME, organization)] if organization else []
    if common_name is not None:
        attributes.append(x509.NameAttribute(NameOID.COMMON_NAME, common_name))
    return x509.Name(attributes)


def general_name(text):
    """'www.example.com' → dNSName, '10.0.0.1' or '::1' → iPAddress, 'dns:1.2.3.4' forces dNSName,
    '10.0.0.0/8' → an iPAddress subtree (for name constraints)."""
    if text.startswith("dns:"):
        return x509.DNSName(text[4:])
    if "/" in text:
        return x509.IPAddress(ipaddress.ip_network(text))
    try:
        return x509.IPAddress(ipaddress.ip_address(text))
    except ValueError:
        return x509.DNSName(text)


def key_usage(bits):
    names = ["digital_signature", "content_commitment", "key_encipherment", "data_encipherment", "key_agreement",
             "key_cert_sign", "crl_sign", "encipher_only", "decipher_only"]
    return x509.KeyUsage(**{n: n in bits for n in names})


def certificate(r, subject, key, issuer, signer, ca=False, hash=None, path_len=None, bc="critical", ku="default",
                eku="default", sans="default", san_critical=False, ski=True, aki=True, aki_key=None,
                permitted=None, excluded=None, nc_critical=True, extra=(), not_before=NOT_BEFORE, not_after=NOT_AFTER,
                pss_salt=None, serial=None):
    """One certificate, DER. `key` is the subject's private key, `signer` the issuer's. The
    defaults give a CA/B-Forum-shaped CA or server certificate; each keyword changes one thing."""
    builder = x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(key.public_key())
    builder = builder.serial_number(serial if serial is not None else r.randrange(1, 2 ** 63))
    builder = builder.not_valid_before(datetime.datetime.fromtimestamp(not_before, UTC))
    builder = builder.not_valid_after(datetime.datetime.fromtimestamp(not_after, UTC))
    if bc is not None:
        builder = builder.add_extension(x509.BasicConstraints(ca=ca, path_length=path_len if ca else None), bc == "critical")
    if ku == "default":
        ku = {"key_cert_sign", "crl_sign", "digital_signature"} if ca else {"digital_signature"} | (
            {"key_encipherment"} if kind_of(key).startswith("RSA") else set())
    if ku is not None:
        builder = builder.add_extension(key_usage(ku), True)
    if eku == "default":
        eku = None if ca else [SERVER_AUTH]
    if eku is not None:
        builder = builder.add_extension(x509.ExtendedKeyUsage(eku), False)
    if ski:  # True, or "critical"
        builder = builder.add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), ski == "critical")
    if aki:  # True, "critical", or "no-keyid" (the issuer's name and a serial instead)
        value = x509.AuthorityKeyIdentifier.from_issuer_public_key((aki_key or signer).public_key())
        if aki == "no-keyid":
            value = x509.AuthorityKeyIdentifier(None, [x509.DirectoryName(issuer)], 1)
        builder = builder.add_extension(value, aki == "critical")
    if sans == "default":
        sans = None if ca else ["www.example.com"]
    if sans is not None:
        builder = builder.add_extension(x509.SubjectAlternativeName([general_name(s) for s in sans]), san_critical)
    if permitted is not None or excluded is not None:
        constraints = x509.NameConstraints([general_name(s) for s in permitted] if permitted is not None else None,
                                           [general_name(s) for s in excluded] if excluded is not None else None)
        builder = builder.add_extension(constraints, nc_critical)
    for oid, critical, value in extra:
        builder = builder.add_extension(x509.UnrecognizedExtension(oid, value), critical)
    hash = hash or default_hash(signer)
    if isinstance(signer, ec.EllipticCurvePrivateKey):
        return builder.sign(signer, HASH[hash](), ecdsa_deterministic=True).public_bytes(serialization.Encoding.DER)
    if pss_salt is None:
        return builder.sign(signer, HASH[hash]()).public_bytes(serialization.Encoding.DER)
    # PSS: pyca writes the AlgorithmIdentifier (SHA-256, MGF1-SHA-256, salt 32) with a random
    # salt; the TBS is then signed again here with the seeded salt.
    pss = padding.PSS(padding.MGF1(HASH[hash]()), len(pss_salt))
    der = builder.sign(signer, HASH[hash](), rsa_padding=pss).public_bytes(serialization.Encoding.DER)
    tbs, algorithm, _ = split_certificate(der)
    return assemble(tbs, algorithm, pss_sign(signer, tbs, hash.lower(), pss_salt))


# DER: just enough to take a certificate apart and put it back together.

def tlv(tag, content):
    n = len(content)
    length = bytes([n]) if n < 0x80 else bytes([0x80 | ((n.bit_length() + 7) // 8)]) + n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag]) + length + content


def read(data, offset=0):
    """(tag, start of content, end of content) of the TLV at offset."""
    tag, first = data[offset], data[offset + 1]
    if first < 0x80:
        return tag, offset + 2, offset + 2 + first
    count = first & 0x7F
    length = int.from_bytes(data[offset + 2:offset + 2 + count], "big")
    return tag, offset + 2 + count, offset + 2 + count + length


def children(data):
    """The complete TLVs inside a constructed value's content."""
    out, offset = [], 0
    while offset < len(data):
        _, start, end = read(data, offset)
        out.append(data[offset:end])
        offset = end
    return out


def split_certificate(der):
    _, start, end = read(der)
    return children(der[start:end])


def assemble(tbs, algorithm, signature):
    return tlv(0x30, tbs + algorithm + tlv(0x03, b"\x00" + signature))


def oid(dotted):
    parts = [int(p) for p in dotted.split(".")]
    body = bytearray([40 * parts[0] + parts[1]])
    for part in parts[2:]:
        chunk = [part & 0x7F]
        while part > 0x7F:
            part >>= 7
            chunk.append(0x80 | (part & 0x7F))
        body += bytes(reversed(chunk))
    return tlv(0x06, bytes(body))


SIGNATURE_OIDS = {("EC", "SHA1"): "1.2.840.10045.4.1", ("EC", "SHA256"): "1.2.840.10045.4.3.2",
                  ("EC", "SHA384"): "1.2.840.10045.4.3.3", ("EC", "SHA512"): "1.2.840.10045.4.3.4",
                  ("RSA", "SHA1"): "1.2.840.113549.1.1.5", ("RSA", "SHA256"): "1.2.840.113549.1.1.11",
                  ("RSA", "SHA384"): "1.2.840.113549.1.1.12", ("RSA", "SHA512"): "1.2.840.113549.1.1.13"}


def signature_algorithm(signer, hash):
    """The AlgorithmIdentifier DER: no parameters for ECDSA, NULL for RSA (RFC 5758, RFC 4055)."""
    family = "EC" if isinstance(signer, ec.EllipticCurvePrivateKey) else "RSA"
    return tlv(0x30, oid(SIGNATURE_OIDS[family, hash]) + (b"" if family == "EC" else b"\x05\x00"))


def sign_tbs(signer, tbs, hash):
    if isinstance(signer, ec.EllipticCurvePrivateKey):
        return signer.sign(tbs, ec.ECDSA(HASH[hash](), deterministic_signing=True))
    return signer.sign(tbs, padding.PKCS1v15(), HASH[hash]())


def resign(der, signer, edit=None, hash=None):
    """Apply `edit` to the TBS fields (a list of TLVs), then sign again; with `hash`, under that
    signature algorithm (written in the TBS and outside it), else under the one already there."""
    tbs, algorithm, _ = split_certificate(der)
    _, start, end = read(tbs)
    fields = children(tbs[start:end])
    if hash is not None:
        algorithm = fields[2] = signature_algorithm(signer, hash)
    else:
        hash = {v: h for (_, h), v in SIGNATURE_OIDS.items()}[x509.load_der_x509_certificate(der).signature_algorithm_oid.dotted_string]
    if edit is not None:
        fields = edit(fields)
    tbs = tlv(0x30, b"".join(fields))
    return assemble(tbs, algorithm, sign_tbs(signer, tbs, hash))


def flip_in_tbs(der, field, from_end=1):
    """Change one byte near the end of a TBS field's content (0 = version, 1 = serial, …): the
    certificate still parses, but its signature no longer covers it."""
    tbs, algorithm, signature = split_certificate(der)
    _, start, end = read(tbs)
    fields = children(tbs[start:end])
    target = bytearray(fields[field])
    target[len(target) - from_end] ^= 0x01
    fields[field] = bytes(target)
    return tlv(0x30, tlv(0x30, b"".join(fields)) + algorithm + signature)


def flip_signature(der):
    tbs, algorithm, signature = split_certificate(der)
    value = bytearray(signature)
    value[-1] ^= 0x01  # the last byte of s (ECDSA) or of the RSA block: still well-formed DER
    return tlv(0x30, tbs + algorithm + bytes(value))


# The verdicts.

def pyca_verdict(leaf, intermediates, anchors, host, time):
    """(valid?, pyca's reason). A certificate pyca cannot parse makes the case invalid."""
    try:
        with warnings.catch_warnings():  # serial 0 loads with a deprecation warning in pyca 48
            warnings.simplefilter("ignore")
            leaf_cert = x509.load_der_x509_certificate(leaf)
            others = [x509.load_der_x509_certificate(c) for c in intermediates]
            store = Store([x509.load_der_x509_certificate(c) for c in anchors])
    except Exception as error:  # ValueError, InvalidVersion
        return False, "unparseable: %s" % error
    try:
        subject = x509.IPAddress(ipaddress.ip_address(host))
    except ValueError:
        subject = x509.DNSName(host)
    verifier = PolicyBuilder().store(store).time(datetime.datetime.fromtimestamp(time, UTC)).build_server_verifier(subject)
    try:
        verifier.verify(leaf_cert, others)
        return True, ""
    except Exception as error:  # VerificationError, or ValueError for things pyca refuses outright
        return False, str(error)


# OpenSSL is asked when the files are written; `--check` (CI) only compares them, so another
# OpenSSL build there cannot fail it. SWIFTMFA_VECTORS_NO_OPENSSL=1 skips it when writing too.
OPENSSL = None if "--check" in sys.argv or os.environ.get("SWIFTMFA_VECTORS_NO_OPENSSL") else shutil.which("openssl")


def pem(ders):
    out = []
    for der in ders:
        text = base64.b64encode(der).decode()
        out.append("-----BEGIN CERTIFICATE-----\n" + "\n".join(text[i:i + 64] for i in range(0, len(text), 64))
                   + "\n-----END CERTIFICATE-----\n")
    return "".join(out)


def openssl_verdict(leaf, intermediates, anchors, host, time):
    """(valid?, output) from `openssl verify` in strict mode with the server purpose, security
    level 2 (RSA ≥ 2048, no SHA-1) and the host check; None when openssl is not installed."""
    if OPENSSL is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        paths = {}
        for label, ders in [("leaf", [leaf]), ("untrusted", intermediates), ("anchors", anchors)]:
            paths[label] = os.path.join(folder, label + ".pem")
            with open(paths[label], "w") as handle:
                handle.write(pem(ders))
        command = [OPENSSL, "verify", "-x509_strict", "-purpose", "sslserver", "-auth_level", "2", "-partial_chain",
                   "-attime", str(time), "-CAfile", paths["anchors"]]
        try:
            ipaddress.ip_address(host)
            command += ["-verify_ip", host]
        except ValueError:
            command += ["-verify_hostname", host]
        if intermediates:
            command += ["-untrusted", paths["untrusted"]]
        result = subprocess.run(command + [paths["leaf"]], capture_output=True, text=True)
        return result.returncode == 0, (result.stdout + result.stderr).strip().replace(folder + "/", "")
