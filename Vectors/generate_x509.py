#!/usr/bin/env python3
"""X.509 server certificate path validation, recorded by generate.py (which imports this module)
into Vectors/x509/. Certificates are built in generate_x509_certs.py from seeded keys with
deterministic signatures, so a run reproduces the files byte for byte.

Every case is built to pass or to fail for one reason, and that intended verdict is asserted
against pyca/cryptography's `x509.verification` ServerVerifier (Rust, the CA/B-Forum profile)
and, unless a difference is written next to the case, against `openssl verify -x509_strict
-purpose sslserver -auth_level 2 -partial_chain` when the files are written and openssl is
installed (not under --check; SWIFTMFA_VECTORS_NO_OPENSSL=1 skips it; the files do not depend on it).
A few cases refuse what both path validators accept, for a rule of TLS rather than of the path
(a leaf key that may not sign, RFC 8446 §4.4.2.2); each says so in its comment.

Files (inputs: leaf, intermediates, anchors as DER hex, host, time in Unix seconds):
  x509/server-path.json          RFC 5280 path validation as the WebPKI does it (X509-SERVER-PATH)
  x509/server-path-rsa-pss.json  the same with RSASSA-PSS signatures (optional for a validator)
  x509/server-path-profile.json  what pyca's CA/B-Forum profile refuses beyond RFC 5280, with
                                 pyca's verdicts: opt-in (X509-SERVER-PATH-PROFILE)

Cases left out because the validators disagree (our intended verdict vs pyca 48, or OpenSSL):
  - RSA-1024 *leaf* key under an RSA-2048/EC chain: pyca accepts (it checks the key size of
    issuers only); our policy and OpenSSL (security level 2) refuse. RSA-1024 intermediates and
    anchors are in the suite.
  - P-521 keys and ecdsa-with-SHA512 from a P-521 CA: pyca accepts; our policy has no P-521.
  - `*.com` for the host `example.com`: pyca accepts (a wildcard for one label), OpenSSL refuses
    a wildcard directly above the last label.
  - dNSName constraint written `.example.com`: pyca refuses it as a malformed constraint;
    OpenSSL reads it as "subdomains of example.com" and accepts www.example.com.
  - Wildcard SAN `*.example.com` under a permitted subtree `www.example.com`: pyca 48 accepts,
    OpenSSL refuses. (Under an excluded subtree pyca refuses, as we do, and OpenSSL accepts:
    that case is in the suite.)
  - anyExtendedKeyUsage alone on an intermediate: pyca accepts, OpenSSL refuses.
  - The leaf itself in the anchor store (self-signed, or with its issuer absent): pyca accepts
    without looking for an issuer; our "chain to an anchor through issuers" would not.
  - Hosts pyca cannot take as a DNS name (`www.example.com.` with a trailing dot,
    `under_score.example.com`): build_server_verifier raises before a certificate is read.
  - Moved to server-path-profile.json (pyca's verdicts, not our policy's): anchors that are
    expired, not yet valid, or carry an unknown critical extension (RFC 5280 checks none of
    that on a trust anchor; pyca treats the anchor as an issuer like any other), and nine
    intermediates (pyca's default maximum depth is 8; eight are in this suite, valid).
Malformed certificates (truncated, trailing bytes, version 2 with extensions) cannot be loaded by
pyca at all; their construction verdict "invalid" stands.
"""

from cryptography import __version__ as cryptography_version
from cryptography import x509

from generate import case, document, hx, rng
from generate_x509_certs import (CLIENT_AUTH, NOT_AFTER, NOT_BEFORE, NOW, SERVER_AUTH, UNKNOWN_OID, Keys, at, certificate,
                                 children, flip_in_tbs, flip_signature, name, openssl_verdict, pyca_verdict, read, resign,
                                 signature_algorithm, tlv)

REFERENCE = ("pyca/cryptography %s x509.verification ServerVerifier (Rust), cross-checked with OpenSSL 3 `openssl verify "
             "-x509_strict -purpose sslserver -auth_level 2 -partial_chain`" % cryptography_version)
HOST = "www.example.com"
ANY_EKU = x509.ObjectIdentifier("2.5.29.37.0")
OID = {"eku": x509.ObjectIdentifier("2.5.29.37"), "nc": x509.ObjectIdentifier("2.5.29.30")}
# Differences from OpenSSL that the suite keeps (our policy and pyca agree on these cases).
NOT_AFTER_INCLUSIVE = "OpenSSL treats notAfter as exclusive (RFC 5280 §4.1.2.5: inclusive)"
PARTIAL_WILDCARD = "OpenSSL matches partial-label wildcards"
CN_FALLBACK = "OpenSSL falls back to the subject CN without a DNS SAN"
TRAILING = "OpenSSL ignores bytes after the certificate in a PEM block"
AKI_LOOKUP = "OpenSSL picks issuers by the AKI key identifier"
NO_BACKTRACK = "OpenSSL does not backtrack over a rejected untrusted issuer"


class Chain:
    def __init__(self, certs, keys, names):
        self.certs, self.keys, self.names = certs, keys, names
        self.leaf, self.ints, self.root = certs[0], certs[1:-1], certs[-1]


class Suite:
    def __init__(self, label, keys):
        self.r, self.keys, self.cases, self.count = rng("x509/" + label), keys, [], 0

    def chain(self, kinds, leaf=None, ints=None, root=None):
        """kinds from the leaf to the root; options per certificate for `certificate()`, plus
        "post": f(der, issuer key) → der for damage done after signing."""
        self.count += 1
        n, tag = len(kinds), self.count
        roles = ["leaf"] + (["int", "int2"] * 5)[:n - 2] + ["root"]
        keys = [self.keys.get(kind, role) for kind, role in zip(kinds, roles)]
        names = ([name("SwiftMFA test server %d" % tag)] + [name("SwiftMFA test intermediate %d.%d" % (tag, i + 1)) for i in range(n - 2)]
                 + [name("SwiftMFA test root %d" % tag)])
        ints = ints or {}
        options = [dict(leaf or {})] + [dict(ints.get(i, {})) for i in range(n - 2)] + [dict(root or {})]
        certs = [None] * n
        for i in reversed(range(n)):
            up, opts = min(i + 1, n - 1), options[i]
            post = opts.pop("post", None)
            opts.setdefault("ca", i > 0)
            certs[i] = certificate(self.r, names[i], keys[i], names[up], keys[up], **opts)
            if post:
                certs[i] = post(certs[i], keys[up])
        return Chain(certs, keys, names)

    def add(self, comment, chain=None, host=HOST, time=NOW, reason=None, leaf=None, ints=None, anchors=None, openssl=None, pyca=None):
        """`openssl` names, when given, why OpenSSL's verdict differs from pyca's; `pyca`, why
        pyca's differs from `reason` (a rule of TLS that a path validator alone does not
        apply, in which OpenSSL then agrees with pyca). Each difference is asserted."""
        leaf = leaf if leaf is not None else chain.leaf
        ints = ints if ints is not None else chain.ints
        anchors = anchors if anchors is not None else [chain.root]
        valid, why = pyca_verdict(leaf, ints, anchors, host, time)
        assert (valid == (reason is None)) == (pyca is None), "pyca %s on %r: %s" % ("disagrees" if pyca is None else "agrees", comment, why)
        checked = openssl_verdict(leaf, ints, anchors, host, time)
        if checked is not None:
            agrees = checked[0] == valid
            assert agrees == (openssl is None), "OpenSSL %s on %r: %s" % ("disagrees" if openssl is None else "agrees", comment, checked[1])
        case(self.cases, comment, {"leaf": hx(leaf), "intermediates": [hx(c) for c in ints], "anchors": [hx(c) for c in anchors],
                                   "host": host, "time": time}, {"reason": reason} if reason else {},
             "valid" if reason is None else "invalid")


def describe(kinds):
    return " ← ".join(kinds)


def other_key(suite, kind):
    """A key no certificate of the chain holds (the RSA pool's fifth key for any RSA size)."""
    return suite.keys.get("RSA-2048" if kind.startswith("RSA") else kind, "other")


def signatures(s):
    """Valid chains over every key type and signature hash."""
    for signer in ["P-256", "P-384", "RSA-2048", "RSA-3072"]:
        for hash in ["SHA256", "SHA384", "SHA512"]:
            for subject in ["P-256", "P-384", "RSA-2048"]:
                c = s.chain((subject, signer), leaf={"hash": hash})
                s.add("%s leaf signed by a %s root with %s" % (subject, signer, hash.replace("SHA", "SHA-")), c)
    for kinds in [("P-256", "P-256", "P-256"), ("P-384", "P-384", "P-384"), ("RSA-2048", "RSA-2048", "RSA-2048"),
                  ("RSA-2048", "RSA-2048", "RSA-3072"), ("P-256", "P-384", "P-384"), ("P-256", "P-256", "P-384"),
                  ("P-384", "P-256", "P-256"), ("P-256", "RSA-2048", "RSA-3072"), ("RSA-2048", "P-256", "P-384"),
                  ("P-384", "RSA-2048", "P-256"), ("RSA-2048", "P-384", "RSA-2048"), ("P-256", "P-384", "RSA-2048"),
                  ("P-256", "P-256", "P-256", "P-256"), ("P-384", "P-384", "P-384", "P-384"), ("RSA-2048", "RSA-2048", "RSA-2048", "RSA-3072"),
                  ("P-256", "P-384", "RSA-2048", "RSA-3072"), ("RSA-2048", "P-256", "P-384", "RSA-2048"), ("P-384", "P-256", "RSA-2048", "P-384")]:
        s.add("chain %s" % describe(kinds), s.chain(kinds))
    s.add("P-256 intermediate signed by a P-384 root with SHA-256", s.chain(("P-256", "P-256", "P-384"), ints={0: {"hash": "SHA256"}}))
    s.add("P-384 intermediate signed by a P-256 root with SHA-512", s.chain(("P-384", "P-384", "P-256"), ints={0: {"hash": "SHA512"}}))
    s.add("RSA intermediate signed with SHA-512, leaf with SHA-384", s.chain(("P-256", "RSA-2048", "RSA-3072"),
                                                                             leaf={"hash": "SHA384"}, ints={0: {"hash": "SHA512"}}))
    s.add("root self-signed with SHA-1 (an anchor's own signature is not checked)",
          s.chain(("P-256", "P-256", "RSA-2048"), root={"post": lambda der, key: resign(der, key, hash="SHA1")}))
    s.add("eight intermediates", s.chain(("P-256",) * 10))


def per_chain(s, kinds):
    """The valid variants and single-fault invalid ones of one three-certificate chain shape."""
    label = describe(kinds)
    base = s.chain(kinds)
    s.add("%s: valid" % label, base)
    s.add("%s: host in upper case" % label, base, host="WWW.EXAMPLE.COM")
    s.add("%s: intermediate listed after an unrelated certificate" % label, base, ints=[s.chain(kinds).ints[0], base.ints[0]])
    s.add("%s: root also sent by the server" % label, base, ints=[base.ints[0], base.root])
    s.add("%s: two anchors, the right one second" % label, base, anchors=[s.chain(kinds).root, base.root])
    s.add("%s: at notBefore exactly" % label, base, time=NOT_BEFORE)
    s.add("%s: at notAfter exactly" % label, base, time=NOT_AFTER, openssl=NOT_AFTER_INCLUSIVE)
    s.add("%s: one second before notBefore" % label, base, time=NOT_BEFORE - 1, reason="notYetValid")
    s.add("%s: one second after notAfter" % label, base, time=NOT_AFTER + 1, reason="expired")
    c = s.chain(kinds, leaf={"not_after": NOW - 1})
    s.add("%s: leaf expired one second ago" % label, c, reason="expired")
    s.add("%s: leaf at its own notAfter, the others well inside" % label, c, time=NOW - 1, openssl=NOT_AFTER_INCLUSIVE)
    c = s.chain(kinds, leaf={"not_before": NOW + 1})
    s.add("%s: leaf valid from one second later" % label, c, reason="notYetValid")
    s.add("%s: intermediate expired" % label, s.chain(kinds, ints={0: {"not_after": NOW - 1}}), reason="expired")
    s.add("%s: intermediate not yet valid" % label, s.chain(kinds, ints={0: {"not_before": NOW + 1}}), reason="notYetValid")
    s.add("%s: leaf outliving its intermediate" % label, s.chain(kinds, leaf={"not_after": at(2035, 1, 1)},
                                                                   ints={0: {"not_after": at(2031, 1, 1)}}))
    s.add("%s: wrong host" % label, base, host="www.example.org", reason="hostnameMismatch")
    s.add("%s: intermediate missing" % label, base, ints=[], reason="unknownIssuer")
    s.add("%s: anchored to another root" % label, base, anchors=[s.chain(kinds).root], reason="unknownIssuer")
    s.add("%s: leaf signed by another key under the right issuer name" % label,
          s.chain(kinds, leaf={"post": lambda der, key: resign(der, other_key(s, kinds[1]))}), reason="badSignature")
    s.add("%s: intermediate signed by another key under the root's name" % label,
          s.chain(kinds, ints={0: {"post": lambda der, key: resign(der, other_key(s, kinds[2]))}}), reason="badSignature")
    s.add("%s: leaf serial changed after signing" % label, s.chain(kinds, leaf={"post": lambda der, key: flip_in_tbs(der, 1)}),
          reason="badSignature")
    s.add("%s: intermediate serial changed after signing" % label,
          s.chain(kinds, ints={0: {"post": lambda der, key: flip_in_tbs(der, 1)}}), reason="badSignature")
    s.add("%s: leaf signature bit flipped" % label, s.chain(kinds, leaf={"post": lambda der, key: flip_signature(der)}),
          reason="badSignature")
    s.add("%s: intermediate signature bit flipped" % label, s.chain(kinds, ints={0: {"post": lambda der, key: flip_signature(der)}}),
          reason="badSignature")
    s.add("%s: leaf with clientAuth only" % label, s.chain(kinds, leaf={"eku": [CLIENT_AUTH]}), reason="extendedKeyUsage")
    s.add("%s: leaf with serverAuth and clientAuth" % label, s.chain(kinds, leaf={"eku": [CLIENT_AUTH, SERVER_AUTH]}))
    s.add("%s: leaf without extKeyUsage" % label, s.chain(kinds, leaf={"eku": None}))
    s.add("%s: intermediate with clientAuth only" % label, s.chain(kinds, ints={0: {"eku": [CLIENT_AUTH]}}), reason="extendedKeyUsage")
    s.add("%s: intermediate with serverAuth" % label, s.chain(kinds, ints={0: {"eku": [SERVER_AUTH]}}))
    s.add("%s: intermediate keyUsage without keyCertSign" % label,
          s.chain(kinds, ints={0: {"ku": {"digital_signature", "crl_sign"}}}), reason="keyUsage")
    s.add("%s: root keyUsage without keyCertSign" % label, s.chain(kinds, root={"ku": {"digital_signature", "crl_sign"}}), reason="keyUsage")
    s.add("%s: intermediate with cA=FALSE" % label, s.chain(kinds, ints={0: {"ca": False, "ku": {"key_cert_sign", "digital_signature"}}}),
          reason="notCA")
    s.add("%s: intermediate without basicConstraints" % label, s.chain(kinds, ints={0: {"bc": None}}), reason="notCA")
    s.add("%s: root without basicConstraints" % label, s.chain(kinds, root={"bc": None}), reason="notCA")
    s.add("%s: intermediate pathLen 0" % label, s.chain(kinds, ints={0: {"path_len": 0}}))
    s.add("%s: root pathLen 1" % label, s.chain(kinds, root={"path_len": 1}))
    s.add("%s: root pathLen 0 above an intermediate" % label, s.chain(kinds, root={"path_len": 0}), reason="pathLengthExceeded")
    unknown = [(UNKNOWN_OID, True, b"\x05\x00")]
    s.add("%s: unknown critical extension in the leaf" % label, s.chain(kinds, leaf={"extra": unknown}), reason="unknownCriticalExtension")
    s.add("%s: unknown critical extension in the intermediate" % label, s.chain(kinds, ints={0: {"extra": unknown}}),
          reason="unknownCriticalExtension")
    s.add("%s: unknown non-critical extensions" % label, s.chain(kinds, leaf={"extra": [(UNKNOWN_OID, False, b"\x05\x00")]},
                                                                   ints={0: {"extra": [(UNKNOWN_OID, False, b"\x01\x01\xff")]}}))
    s.add("%s: leaf signed with SHA-1" % label, s.chain(kinds, leaf={"post": lambda der, key: resign(der, key, hash="SHA1")}),
          reason="weakSignatureAlgorithm")
    s.add("%s: intermediate signed with SHA-1" % label, s.chain(kinds, ints={0: {"post": lambda der, key: resign(der, key, hash="SHA1")}}),
          reason="weakSignatureAlgorithm")
    s.add("%s: leaf truncated by one byte" % label, base, leaf=base.leaf[:-1], reason="malformed")
    s.add("%s: a byte after the leaf's DER" % label, base, leaf=base.leaf + b"\x00", reason="malformed", openssl=TRAILING)


def four_level(s, kinds):
    label = describe(kinds)
    c = s.chain(kinds)
    s.add("%s: intermediates in reverse order" % label, c, ints=list(reversed(c.ints)))
    s.add("%s: intermediates mixed with unrelated ones" % label, c, ints=[s.chain(kinds).ints[1], c.ints[1], s.chain(kinds).ints[0], c.ints[0]])
    s.add("%s: upper intermediate missing" % label, c, ints=[c.ints[0]], reason="unknownIssuer")
    s.add("%s: lower intermediate pathLen 0, upper pathLen 1" % label, s.chain(kinds, ints={0: {"path_len": 0}, 1: {"path_len": 1}}))
    s.add("%s: upper intermediate pathLen 0" % label, s.chain(kinds, ints={1: {"path_len": 0}}), reason="pathLengthExceeded")
    s.add("%s: root pathLen 1 above two intermediates" % label, s.chain(kinds, root={"path_len": 1}), reason="pathLengthExceeded")
    s.add("%s: upper intermediate expired" % label, s.chain(kinds, ints={1: {"not_after": NOW - 1}}), reason="expired")
    s.add("%s: upper intermediate without keyCertSign" % label, s.chain(kinds, ints={1: {"ku": {"crl_sign"}}}), reason="keyUsage")
    s.add("%s: the upper intermediate given as the anchor" % label, c, ints=[c.ints[0]], anchors=[c.ints[1]])


def hostnames(s):
    rows = [  # (SANs, host, reason, OpenSSL difference)
        (["www.example.com"], "www.example.com", None, None), (["WWW.Example.COM"], "www.example.com", None, None),
        (["www.example.com"], "Www.Example.Com", None, None), (["*.example.com"], "www.example.com", None, None),
        (["*.EXAMPLE.com"], "mail.example.com", None, None), (["*.example.com"], "WWW.EXAMPLE.COM", None, None),
        (["other.org", "www.example.com"], "www.example.com", None, None), (["www.example.com", "10.0.0.1"], "www.example.com", None, None),
        (["other.org", "*.example.com", "10.0.0.1"], "a.example.com", None, None), (["localhost"], "localhost", None, None),
        (["xn--bcher-kva.example"], "xn--bcher-kva.example", None, None), (["a-b.c-d.example.com"], "a-b.c-d.example.com", None, None),
        (["example.com", "www.example.com"], "example.com", None, None), (["*.a.example.com"], "b.a.example.com", None, None),
        (["*.example.com"], "example.com", "hostnameMismatch", None), (["*.example.com"], "a.b.example.com", "hostnameMismatch", None),
        (["*.*.example.com"], "a.b.example.com", "hostnameMismatch", None), (["*.*.example.com"], "www.example.com", "hostnameMismatch", None),
        (["w*.example.com"], "www.example.com", "hostnameMismatch", PARTIAL_WILDCARD),
        (["*w.example.com"], "www.example.com", "hostnameMismatch", PARTIAL_WILDCARD),
        (["w*w.example.com"], "www.example.com", "hostnameMismatch", None), (["www.*.com"], "www.example.com", "hostnameMismatch", None),
        (["*"], "www.example.com", "hostnameMismatch", None), (["*.www.example.com"], "www.example.com", "hostnameMismatch", None),
        (["example.com"], "www.example.com", "hostnameMismatch", None), (["www.example.com"], "example.com", "hostnameMismatch", None),
        (["www.example.com"], "wwww.example.com", "hostnameMismatch", None), (["www.example.com"], "ww.example.com", "hostnameMismatch", None),
        (["www.example.com.evil.org"], "www.example.com", "hostnameMismatch", None),
        (["www.example.com."], "www.example.com", "hostnameMismatch", None), (["www.example.co"], "www.example.com", "hostnameMismatch", None),
        (["127.0.0.1"], "127.0.0.1", None, None), (["::1"], "::1", None, None), (["::1"], "0:0:0:0:0:0:0:1", None, None),
        (["www.example.com", "192.0.2.7"], "192.0.2.7", None, None), (["2001:db8::17", "www.example.com"], "2001:db8::17", None, None),
        (["dns:127.0.0.1"], "127.0.0.1", "hostnameMismatch", None), (["127.0.0.1"], "127.0.0.2", "hostnameMismatch", None),
        (["127.0.0.1"], "::1", "hostnameMismatch", None), (["::1"], "127.0.0.1", "hostnameMismatch", None),
        (["::ffff:127.0.0.1"], "127.0.0.1", "hostnameMismatch", None), (["*.0.0.1"], "127.0.0.1", "hostnameMismatch", None),
        (["www.example.com"], "192.0.2.7", "hostnameMismatch", None), (["192.0.2.7"], "www.example.com", "hostnameMismatch", None),
    ]
    kinds = [("P-256", "P-256", "P-256"), ("RSA-2048", "P-384", "P-384"), ("P-384", "RSA-2048", "RSA-3072")]
    for index, (sans, host, reason, openssl) in enumerate(rows):
        shape = kinds[index % 3]
        s.add("SAN %s, host %s (%s)" % (", ".join(sans), host, describe(shape)), s.chain(shape, leaf={"sans": sans}), host=host,
              reason=reason, openssl=openssl)
    c = s.chain(("P-256", "P-256", "P-256"), leaf={"sans": None})
    leaf = certificate(s.r, name("www.example.com"), c.keys[0], c.names[1], c.keys[1], sans=None)
    s.add("no subjectAltName, host only in the subject CN", leaf=leaf, ints=c.ints, anchors=[c.root], reason="hostnameMismatch",
          openssl=CN_FALLBACK)


def name_constraints(s):
    rows = [  # (where, permitted, excluded, SANs, host, reason)
        ("int", ["example.com"], None, ["www.example.com"], "www.example.com", None),
        ("root", ["example.com"], None, ["www.example.com"], "www.example.com", None),
        ("int", ["example.com"], None, ["example.com"], "example.com", None),
        ("int", ["EXAMPLE.COM"], None, ["www.example.com"], "www.example.com", None),
        ("int", ["www.example.com"], None, ["www.example.com"], "www.example.com", None),
        ("int", ["example.com"], None, ["*.example.com"], "www.example.com", None),
        ("int", ["example.com", "example.org"], None, ["www.example.com", "www.example.org"], "www.example.org", None),
        ("int", ["example.com"], ["secret.example.com"], ["www.example.com"], "www.example.com", None),
        ("int", None, ["other.com"], ["www.example.com"], "www.example.com", None),
        ("root", None, ["example.org"], ["www.example.com"], "www.example.com", None),
        ("int", ["example.com"], None, ["www.example.com", "10.0.0.1"], "www.example.com", None),
        ("int", ["10.0.0.0/8"], None, ["www.example.com"], "www.example.com", None),
        ("int", ["example.com"], None, ["10.1.2.3"], "10.1.2.3", None),
        ("int", ["10.0.0.0/8"], None, ["10.1.2.3"], "10.1.2.3", None),
        ("root", ["192.0.2.0/24"], None, ["192.0.2.200"], "192.0.2.200", None),
        ("int", ["10.1.2.3/32"], None, ["10.1.2.3"], "10.1.2.3", None),
        ("int", None, ["10.1.0.0/16"], ["10.2.2.3"], "10.2.2.3", None),
        ("int", ["::/64"], None, ["::1"], "::1", None),
        ("int", ["2001:db8::/32"], None, ["2001:db8::5"], "2001:db8::5", None),
        ("int", ["example.com", "10.0.0.0/8"], None, ["www.example.com", "10.1.2.3"], "10.1.2.3", None),
        ("int", ["example.com"], None, ["www.other.com"], "www.other.com", "nameConstraints"),
        ("root", ["example.com"], None, ["www.other.com"], "www.other.com", "nameConstraints"),
        ("int", ["other.com"], None, ["www.example.com"], "www.example.com", "nameConstraints"),
        ("int", ["example.com"], None, ["www.badexample.com"], "www.badexample.com", "nameConstraints"),
        ("int", ["ww.example.com"], None, ["www.example.com"], "www.example.com", "nameConstraints"),
        ("int", ["example.com"], None, ["www.example.com", "www.other.com"], "www.example.com", "nameConstraints"),
        ("int", None, ["example.com"], ["www.example.com"], "www.example.com", "nameConstraints"),
        ("root", None, ["example.com"], ["www.example.com"], "www.example.com", "nameConstraints"),
        ("int", ["example.com"], ["secret.example.com"], ["secret.example.com"], "secret.example.com", "nameConstraints"),
        ("int", ["example.com"], ["secret.example.com"], ["www.example.com", "a.secret.example.com"], "www.example.com", "nameConstraints"),
        ("int", ["10.0.0.0/8"], None, ["11.1.2.3"], "11.1.2.3", "nameConstraints"),
        ("root", ["10.0.0.0/8"], None, ["11.1.2.3"], "11.1.2.3", "nameConstraints"),
        ("int", None, ["10.1.0.0/16"], ["10.1.2.3"], "10.1.2.3", "nameConstraints"),
        ("int", ["10.0.0.0/8"], None, ["www.example.com", "192.168.1.1"], "www.example.com", "nameConstraints"),
        ("int", ["fd00::/8"], None, ["::1"], "::1", "nameConstraints"),
        ("int", None, ["2001:db8::/32"], ["2001:db8::5"], "2001:db8::5", "nameConstraints"),
        ("int", ["example.com", "10.0.0.0/8"], None, ["www.example.com", "11.1.2.3"], "www.example.com", "nameConstraints"),
    ]
    kinds = [("P-256", "P-256", "P-256"), ("RSA-2048", "RSA-2048", "RSA-3072"), ("P-256", "P-384", "P-384")]
    for index, (where, permitted, excluded, sans, host, reason) in enumerate(rows):
        options = {"permitted": permitted, "excluded": excluded}
        shape = kinds[index % 3]
        c = s.chain(shape, leaf={"sans": sans}, ints={0: options} if where == "int" else None, root=options if where == "root" else None)
        parts = (["permitted %s" % ", ".join(permitted)] if permitted else []) + (["excluded %s" % ", ".join(excluded)] if excluded else [])
        s.add("%s constraints %s; SAN %s, host %s" % (where, "; ".join(parts), ", ".join(sans), host), c, host=host, reason=reason)


def signing_leaf(s):
    """Appended last, so the cases before keep their certificates: a wildcard that could name a
    host of an excluded subtree, and a leaf whose keyUsage does not allow the handshake's
    signature (RFC 8446 §4.4.2.2)."""
    for where in ["int", "root"]:
        options = {"permitted": ["example.com"], "excluded": ["secret.example.com"]}
        c = s.chain(("P-256", "P-256", "P-256"), leaf={"sans": ["*.example.com"]}, ints={0: options} if where == "int" else None,
                    root=options if where == "root" else None)
        s.add("%s constraints permitted example.com; excluded secret.example.com; SAN *.example.com, host www.example.com" % where,
              c, host="www.example.com", reason="nameConstraints", openssl=OPENSSL_LENIENT)
    for shape in [("P-256", "P-256", "P-256"), ("RSA-2048", "RSA-2048", "RSA-3072")]:
        s.add("%s: leaf keyUsage keyEncipherment only (no digitalSignature): %s" % (describe(shape), HANDSHAKE_SIGNATURE),
              s.chain(shape, leaf={"ku": {"key_encipherment"}}), reason="keyUsage", pyca=HANDSHAKE_SIGNATURE)


def replace_validity(not_before, not_after):
    def edit(fields):
        return fields[:4] + [tlv(0x30, tlv(0x17, not_before) + tlv(0x17, not_after))] + fields[5:]
    return edit


def building(s):
    """Path building: candidates with the right name that must be passed over, anchors that
    are not roots, issuers found without the AKI."""
    c = s.chain(("P-256", "P-256", "P-256"))
    twin = lambda **options: certificate(s.r, c.names[1], options.pop("key", c.keys[1]), c.names[2], c.keys[2], **options)
    decoy = twin(key=s.keys.get("P-256", "int"), ca=True)
    s.add("an intermediate with the right name and another key listed first", c, ints=[decoy, c.ints[0]])
    s.add("only an intermediate with the right name and another key", c, ints=[decoy], reason="badSignature")
    expired = twin(ca=True, not_after=NOW - 100)
    s.add("an expired copy of the intermediate listed first", c, ints=[expired, c.ints[0]])
    s.add("only the expired copy of the intermediate", c, ints=[expired], reason="expired")
    s.add("a non-CA copy of the intermediate listed first", c, ints=[twin(ca=False, ku={"key_cert_sign"}), c.ints[0]], openssl=NO_BACKTRACK)
    s.add("the intermediate listed twice", c, ints=[c.ints[0], c.ints[0]])
    s.add("the intermediate given as the only anchor", c, ints=[], anchors=[c.ints[0]])
    s.add("leaf under the root directly, an unused intermediate sent too", s.chain(("P-384", "P-384")), ints=[c.ints[0]])
    other = s.chain(("P-384", "P-384"))
    cross = certificate(s.r, c.names[1], c.keys[1], other.names[1], other.keys[1], ca=True)
    s.add("cross-signed intermediate, only the second root trusted", c, ints=[c.ints[0], cross], anchors=[other.root], openssl=NO_BACKTRACK)
    s.add("cross-signed intermediate, only the first root trusted", c, ints=[cross, c.ints[0]], anchors=[c.root], openssl=NO_BACKTRACK)
    s.add("cross-signed intermediate, both roots trusted", c, ints=[cross, c.ints[0]], anchors=[other.root, c.root])
    s.add("cross-signed intermediate, neither root trusted", c, ints=[cross, c.ints[0]], anchors=[s.chain(("P-256", "P-256")).root],
          reason="unknownIssuer")
    key = s.keys.get("P-256", "leaf")
    selfsigned = certificate(s.r, name("SwiftMFA self-signed server"), key, name("SwiftMFA self-signed server"), key)
    s.add("self-signed leaf, not an anchor", leaf=selfsigned, ints=[], anchors=[c.root], reason="unknownIssuer")
    s.add("self-signed leaf sent as its own intermediate", leaf=selfsigned, ints=[selfsigned], anchors=[c.root], reason="unknownIssuer")
    s.add("no anchor matches, the root sent as an intermediate", c, ints=[c.ints[0], c.root], anchors=[other.root], reason="unknownIssuer")
    wrong = s.keys.get("P-256", "leaf")
    s.add("leaf AKI names another key", s.chain(("P-256", "P-256", "P-256"), leaf={"aki_key": wrong}), openssl=AKI_LOOKUP)
    s.add("intermediate AKI names another key", s.chain(("P-256", "P-256", "P-256"), ints={0: {"aki_key": wrong}}), openssl=AKI_LOOKUP)
    s.add("leaf without subjectKeyIdentifier", s.chain(("P-256", "P-256", "P-256"), leaf={"ski": False}))
    s.add("root without authorityKeyIdentifier", s.chain(("P-256", "P-256", "P-256"), root={"aki": False}))
    s.add("leaf notBefore after notAfter", s.chain(("P-256", "P-256", "P-256"),
          leaf={"post": lambda der, k: resign(der, k, replace_validity(b"270101000000Z", b"260101000000Z"))}), reason="other")


def weak(s):
    s.add("RSA-1024 intermediate", s.chain(("P-256", "RSA-1024", "P-256")), reason="weakKey")
    s.add("RSA-1024 intermediate over an RSA-2048 leaf", s.chain(("RSA-2048", "RSA-1024", "RSA-3072")), reason="weakKey")
    s.add("RSA-1024 root", s.chain(("P-256", "P-256", "RSA-1024")), reason="weakKey")
    s.add("RSA-1024 root over the leaf", s.chain(("RSA-2048", "RSA-1024")), reason="weakKey")
    s.add("RSA-1024 upper intermediate", s.chain(("P-256", "P-256", "RSA-1024", "P-384")), reason="weakKey")
    sha1 = {"post": lambda der, k: resign(der, k, hash="SHA1")}
    s.add("leaf signed with SHA-1 by an RSA-3072 root", s.chain(("P-256", "RSA-3072"), leaf=sha1), reason="weakSignatureAlgorithm")


def malformed(s):
    c = s.chain(("P-256", "P-256", "P-256"))
    s.add("intermediate truncated", c, ints=[c.ints[0][:-20]], reason="malformed")
    s.add("a byte after the intermediate's DER", c, ints=[c.ints[0] + b"\x00"], reason="malformed", openssl=TRAILING)
    s.add("leaf cut to its TBS", c, leaf=c.leaf[:read(c.leaf, read(c.leaf)[1])[2]], reason="malformed")
    s.add("empty leaf", c, leaf=b"", reason="malformed")
    s.add("leaf of random bytes", c, leaf=s.r.randbytes(300), reason="malformed")
    mismatch = lambda der, k: resign(der, k, lambda f: f[:2] + [signature_algorithm(k, "SHA384")] + f[3:])
    s.add("leaf TBS names ecdsa-with-SHA384, the certificate ecdsa-with-SHA256", s.chain(("P-256", "P-256", "P-256"), leaf={"post": mismatch}),
          reason="malformed")

    def duplicate(fields):
        _, start, end = read(fields[-1])
        _, inner_start, inner_end = read(fields[-1], start)
        extensions = children(fields[-1][inner_start:inner_end])
        return fields[:-1] + [tlv(0xA3, tlv(0x30, b"".join(extensions + extensions[-1:])))]
    s.add("leaf with its subjectAltName twice", s.chain(("P-256", "P-256", "P-256"), leaf={"post": lambda der, k: resign(der, k, duplicate)}),
          reason="malformed")
    v2 = lambda der, k: resign(der, k, lambda f: [tlv(0xA0, tlv(0x02, b"\x01"))] + f[1:])
    s.add("leaf of version 2 with extensions", s.chain(("P-256", "P-256", "P-256"), leaf={"post": v2}), reason="malformed")


# Differences from OpenSSL in the profile file.
X509_STRICT = "OpenSSL -x509_strict requires an AKI in every non-root certificate and an SKI in CA certificates"
OPENSSL_LENIENT = "OpenSSL does not enforce this CA/B profile rule"
HANDSHAKE_SIGNATURE = ("path validators accept it (OpenSSL's sslserver purpose takes any of digitalSignature, keyEncipherment "
                       "and keyAgreement); the handshake's signature needs digitalSignature (RFC 8446 §4.4.2.2, as BoringSSL checks)")


def profile(s):
    """pyca's CA/B-Forum profile rules beyond RFC 5280, each broken once (or met at its edge)."""
    shapes = [("P-256", "P-256", "P-256"), ("RSA-2048", "RSA-2048", "RSA-3072"), ("P-384", "P-384", "P-384")]
    for shape in shapes:
        label = describe(shape)
        rows = [  # (comment, leaf options, intermediate options, root options, reason, OpenSSL difference)
            ("leaf without authorityKeyIdentifier", {"aki": False}, {}, {}, "other", None),
            ("leaf authorityKeyIdentifier critical", {"aki": "critical"}, {}, {}, "other", None),
            ("leaf subjectAltName critical under a non-empty subject", {"san_critical": True}, {}, {}, "other", OPENSSL_LENIENT),
            ("leaf with cA=TRUE", {"ca": True, "sans": [HOST], "ku": {"digital_signature"}}, {}, {}, "other", OPENSSL_LENIENT),
            ("leaf keyUsage with keyCertSign", {"ku": {"digital_signature", "key_cert_sign"}}, {}, {}, "keyUsage", None),
            ("leaf extKeyUsage anyExtendedKeyUsage only", {"eku": [ANY_EKU]}, {}, {}, "extendedKeyUsage", None),
            ("leaf extKeyUsage anyExtendedKeyUsage and serverAuth", {"eku": [ANY_EKU, SERVER_AUTH]}, {}, {}, None, None),
            ("leaf extKeyUsage critical", {"eku": None, "extra": [(OID["eku"], True, x509.ExtendedKeyUsage([SERVER_AUTH]).public_bytes())]},
             {}, {}, "other", OPENSSL_LENIENT),
            ("leaf with nameConstraints", {"permitted": ["example.com"]}, {}, {}, "other", OPENSSL_LENIENT),
            ("leaf without keyUsage and basicConstraints", {"ku": None, "bc": None}, {}, {}, None, None),
            ("intermediate without authorityKeyIdentifier", {}, {"aki": False}, {}, None, X509_STRICT),
            ("intermediate without subjectKeyIdentifier", {}, {"ski": False}, {}, None, X509_STRICT),
            ("leaf authorityKeyIdentifier without keyIdentifier (issuer and serial)", {"aki": "no-keyid"}, {}, {}, None, AKI_LOOKUP),
            ("intermediate authorityKeyIdentifier without keyIdentifier (issuer and serial)", {}, {"aki": "no-keyid"}, {}, "other", None),
            ("intermediate authorityKeyIdentifier critical", {}, {"aki": "critical"}, {}, "other", None),
            ("intermediate subjectKeyIdentifier critical", {}, {"ski": "critical"}, {}, "other", None),
            ("leaf subjectKeyIdentifier critical", {"ski": "critical"}, {}, {}, None, "OpenSSL refuses a critical SKI"),
            ("intermediate basicConstraints not critical", {}, {"bc": "noncritical"}, {}, "other", None),
            ("root basicConstraints not critical", {}, {}, {"bc": "noncritical"}, "other", None),
            ("intermediate without keyUsage", {}, {"ku": None}, {}, "keyUsage", None),
            ("root without keyUsage", {}, {}, {"ku": None}, "keyUsage", None),
            ("intermediate nameConstraints with no subtrees", {}, {"extra": [(OID["nc"], True, tlv(0x30, b""))]}, {}, "nameConstraints",
             OPENSSL_LENIENT),
            ("intermediate nameConstraints not critical", {}, {"permitted": ["example.com"], "nc_critical": False}, {}, None, None),
            ("root expired", {}, {}, {"not_after": NOW - 1}, "expired", None),
            ("root not yet valid", {}, {}, {"not_before": NOW + 1}, "notYetValid", None),
            ("root with an unknown critical extension", {}, {}, {"extra": [(UNKNOWN_OID, True, b"\x05\x00")]}, "unknownCriticalExtension", None),
            ("root extKeyUsage clientAuth only", {}, {}, {"eku": [CLIENT_AUTH]}, "extendedKeyUsage", None),
            ("root extKeyUsage serverAuth", {}, {}, {"eku": [SERVER_AUTH]}, None, None),
        ]
        for comment, leaf, inter, root, reason, openssl in rows:
            s.add("%s: %s" % (label, comment), s.chain(shape, leaf=leaf, ints={0: inter}, root=root), reason=reason, openssl=openssl)
        serial = lambda value: lambda der, k: resign(der, k, lambda f: f[:1] + [tlv(0x02, value)] + f[2:])
        for comment, value, reason, openssl in [("serial 0", b"\x00", None, None), ("serial -1", b"\xff", "other", OPENSSL_LENIENT),
                                                ("a 20-byte serial", b"\x7f" + b"\x11" * 19, None, None),
                                                ("a 21-byte serial (20 bytes and a sign byte)", b"\x00\x80" + b"\x11" * 19, None, None),
                                                ("a 22-byte serial", b"\x7f" + b"\x11" * 21, "other", OPENSSL_LENIENT)]:
            s.add("%s: leaf with %s" % (label, comment), s.chain(shape, leaf={"post": serial(value)}), reason=reason, openssl=openssl)
        times = lambda before, after: lambda der, k: resign(der, k, lambda f: f[:4] + [tlv(0x30, before + after)] + f[5:])
        s.add("%s: leaf validity in GeneralizedTime before 2050" % label, s.chain(shape, leaf={"post": times(
            tlv(0x18, b"20250101000000Z"), tlv(0x18, b"20300101000000Z"))}), reason="malformed", openssl=OPENSSL_LENIENT)
        s.add("%s: leaf notAfter in 2050 as GeneralizedTime" % label, s.chain(shape, leaf={"post": times(
            tlv(0x17, b"250101000000Z"), tlv(0x18, b"20500101000000Z"))}))
    c = s.chain(("P-256", "P-256", "P-256"))
    blank = x509.Name([])
    s.add("leaf with an empty subject and a critical subjectAltName",
          leaf=certificate(s.r, blank, c.keys[0], c.names[1], c.keys[1], san_critical=True), ints=c.ints, anchors=[c.root])
    s.add("leaf with an empty subject and a non-critical subjectAltName",
          leaf=certificate(s.r, blank, c.keys[0], c.names[1], c.keys[1]), ints=c.ints, anchors=[c.root], reason="other")
    s.add("nine intermediates (pyca's default maximum depth is 8)", s.chain(("P-256",) * 11), reason="pathLengthExceeded",
          openssl=OPENSSL_LENIENT)


def pss(s):
    """RSASSA-PSS signatures, with the three parameter sets of CA/B 7.1.3.2 (MGF1 with the same
    hash, salt as long as the hash)."""
    lengths = {"SHA256": 32, "SHA384": 48, "SHA512": 64}
    salted = lambda hash, length=None: {"hash": hash, "pss_salt": s.r.randbytes(length or lengths[hash])}
    for hash in ["SHA256", "SHA384", "SHA512"]:
        label = hash.replace("SHA", "SHA-")
        s.add("leaf and intermediate PSS-%s" % label, s.chain(("RSA-2048", "RSA-2048", "RSA-3072"), leaf=salted(hash), ints={0: salted(hash)}))
        s.add("P-256 leaf signed PSS-%s" % label, s.chain(("P-256", "RSA-2048", "RSA-3072"), leaf=salted(hash)))
        s.add("intermediate PSS-%s under an RSA-3072 root, P-384 leaf" % label, s.chain(("P-384", "RSA-2048", "RSA-3072"), ints={0: salted(hash)}))
        s.add("PSS-%s with a salt of 20 bytes" % label, s.chain(("RSA-2048", "RSA-2048", "RSA-3072"), leaf=salted(hash, 20)), reason="other",
              openssl=OPENSSL_LENIENT)
        chain = s.chain(("RSA-2048", "RSA-2048", "RSA-3072"), leaf=dict(salted(hash), post=lambda der, k: flip_signature(der)))
        s.add("PSS-%s signature bit flipped" % label, chain, reason="badSignature")
        chain = s.chain(("RSA-2048", "RSA-2048", "RSA-3072"), leaf=dict(salted(hash), post=lambda der, k: flip_in_tbs(der, 1)))
        s.add("PSS-%s, serial changed after signing" % label, chain, reason="badSignature")
    s.add("PSS-SHA-384 with a 32-byte salt", s.chain(("RSA-2048", "RSA-2048", "RSA-3072"), leaf=salted("SHA384", 32)), reason="other",
          openssl=OPENSSL_LENIENT)
    s.add("PSS-SHA-256 leaf under an RSA-1024 intermediate", s.chain(("RSA-2048", "RSA-1024", "RSA-3072"), leaf=salted("SHA256")), reason="weakKey")


def x509_vectors():
    keys = Keys()
    suite = Suite("server-path", keys)
    signatures(suite)
    for kinds in [("P-256", "P-256", "P-256"), ("P-384", "P-384", "P-384"), ("RSA-2048", "RSA-2048", "RSA-3072"),
                  ("P-256", "P-384", "RSA-2048"), ("RSA-2048", "P-256", "P-384")]:
        per_chain(suite, kinds)
    for kinds in [("P-256", "P-256", "P-256", "P-256"), ("RSA-2048", "P-256", "P-384", "RSA-3072"), ("P-384", "RSA-2048", "RSA-2048", "P-384")]:
        four_level(suite, kinds)
    hostnames(suite)
    name_constraints(suite)
    building(suite)
    weak(suite)
    malformed(suite)
    signing_leaf(suite)
    profile_suite, pss_suite = Suite("server-path-profile", keys), Suite("server-path-rsa-pss", keys)
    profile(profile_suite)
    pss(pss_suite)
    return {"x509/server-path.json": document("X509-SERVER-PATH", REFERENCE, suite.cases),
            "x509/server-path-rsa-pss.json": document("X509-SERVER-PATH-RSA-PSS", REFERENCE, pss_suite.cases),
            "x509/server-path-profile.json": document("X509-SERVER-PATH-PROFILE", REFERENCE, profile_suite.cases)}
