"""M-Pin two-pass and one-pass authentication with and without time permits (docs/protocols/mpin.md §3, §4) and
DVS signatures (§5), computed for the vector generator from the spec on plain Python integers:
the hash to G1 here, the affine groups of generate_protocols_bn254cx.py and the pairing of
generate_protocols_pairing.py. Writes Vectors/protocols/mpin-passes.json and mpin-dvs.json."""

import hashlib
import json

import generate as base
from generate_protocols import case, hx
from generate_protocols_bn254cx import BN_P, BN_R, Fp1, ec_mul, g1_add, g1_bytes, g2_add, g2_bytes
from generate_protocols_pairing import FP12_ONE, document, f12inv, f12pow, generators, gt_bytes, multi_pairing, pairing

MAXPIN, PBLEN = 1_000_000, 20  # the MFA build (docs/protocols/mpin.md §3)


def sha256(data):
    return hashlib.sha256(data).digest()


def be32(n):
    return n.to_bytes(4, "big")


def map_to_g1(digest):
    """ECP_mapit (docs/protocols/mpin.md §3): x = hash mod p, then x + 1 until x³ + 2 is a square; the even root."""
    x = int.from_bytes(digest, "big") % BN_P
    while True:
        rhs = (x ** 3 + 2) % BN_P
        y = pow(rhs, (BN_P + 1) // 4, BN_P)
        if y * y % BN_P == rhs:
            return Fp1(x), Fp1(y if y % 2 == 0 else BN_P - y)
        x += 1


def a_of(identity):
    return map_to_g1(sha256(identity))  # A(ID) = mapit(SHA-256(ID))


def at_of(day, identity):
    return map_to_g1(sha256(be32(day) + sha256(identity)))  # AT(date, ID), docs/protocols/mpin.md §3


def neg(point):
    return None if point is None else (point[0], Fp1(-int(point[1])))


def mul(k, point):
    return ec_mul(k % BN_R, point, g1_add)


def challenge(time, transcript):
    """GET_Y (docs/protocols/mpin.md §3): SHA-256(T_be32 ‖ O) mod r, the prefix only when T > 0."""
    return int.from_bytes(sha256((be32(time) if time > 0 else b"") + transcript), "big") % BN_R


def issue(identity, shares, day=0):
    """sQ, CS = Σ sᵢ·A and TP = Σ sᵢ·AT(day) from the D-TA master shares (docs/protocols/mpin.md §4)."""
    _, q = generators()
    server = None
    for s in shares:
        server = ec_mul(s, q, g2_add) if server is None else g2_add(server, ec_mul(s, q, g2_add))
    a = a_of(identity)
    cs = g1_add(mul(shares[0], a), mul(shares[1], a))
    tp = g1_add(mul(shares[0], at_of(day, identity)), mul(shares[1], at_of(day, identity))) if day else None
    return server, cs, tp


def server_check(q_client, server_secret, v, p_):
    """SERVER_2's equation: e(Q′, V)·e(sQ, P), accepted iff 1 (docs/protocols/mpin.md §4)."""
    return multi_pairing([(q_client, v), (server_secret, p_)])


def client(identity, pin, token, tp, day, x, y):
    """CLIENT_1 and CLIENT_2: SEC = TOKEN + pin·A (+ TP), U = x·A, UT = x·(A + AT), V = −(x + y)·SEC."""
    a = a_of(identity)
    sec = g1_add(token, mul(pin % MAXPIN, a))
    ut = None
    if day:
        sec = g1_add(sec, tp)
        ut = mul(x, g1_add(a, at_of(day, identity)))
    return sec, mul(x, a), ut, neg(mul(x + y, sec))


def verify(identity, server_day, y, u, ut, v, server_secret, q_client):
    """SERVER_1 + SERVER_2; on refusal also E (the failing value) and F = e(Q′, y·HID + U)."""
    hid = a_of(identity)
    base_, sent = (g1_add(hid, at_of(server_day, identity)), ut) if server_day else (hid, u)
    product = server_check(q_client, server_secret, v, g1_add(mul(y, base_), sent))
    if product == FP12_ONE:
        return True, None, None
    return False, product, pairing(q_client, g1_add(mul(y, hid), u))


def mpin_id(r, user):
    """An mpinId as the platform issues it: the bytes of a JSON text (docs/protocols/mpin.md §7.1)."""
    return json.dumps({"issuedAt": 1480000000 + r.randrange(10 ** 7), "userID": user, "cID": "%032x" % r.getrandbits(128),
                       "mobile": 1, "salt": "%032x" % r.getrandbits(128), "v": 1}, separators=(",", ":")).encode()


def passes():
    r = base.rng("protocols/mpin-passes")
    _, q = generators()
    cases = []
    #        user, registered PIN, entered PIN, day, server's day
    plan = [("alice@example.com", 1234, 1234, 0, 0), ("bob@example.com", 999999, 999999, 0, 0), ("carol@example.com", 0, 0, 0, 0),
            ("dave@example.com", 1234, 1235, 0, 0), ("erin@example.com", 52871, 12871, 0, 0),
            ("frank@example.com", 4321, 4321, 20420, 20420), ("grace@example.com", 777777, 777777, 19000, 19000),
            ("heidi@example.com", 2468, 2469, 20420, 20420), ("ivan@example.com", 1111, 1111, 20420, 20421)]
    for user, registered, entered, day, server_day in plan:
        identity = mpin_id(r, user)
        shares = [r.randrange(1, BN_R), r.randrange(1, BN_R)]
        server, cs, tp = issue(identity, shares, day)
        token = g1_add(cs, neg(mul(registered % MAXPIN, a_of(identity))))  # EXTRACT_PIN
        x, y = r.randrange(1, BN_R), r.randrange(BN_R)
        time, message = 1700000000 + r.randrange(10 ** 8), r.randbytes(r.choice([0, 32]))
        sec, u, ut, v = client(identity, entered, token, tp, day, x, y)
        accepted, e, f = verify(identity, server_day, y, u, ut, v, server, q)
        y1 = challenge(time, g1_bytes(ut if day else u) + message)
        _, _, _, v1 = client(identity, entered, token, tp, day, x, y1)
        accepted1, _, _ = verify(identity, server_day, y1, u, ut, v1, server, q)
        assert accepted == accepted1 == (registered == entered and day == server_day)
        outputs = {"serverSecret": hx(g2_bytes(server)), "hashId": hx(sha256(identity)), "clientSecret": hx(g1_bytes(cs)),
                   "timePermit": hx(g1_bytes(tp)), "token": hx(g1_bytes(token)), "sec": hx(g1_bytes(sec)), "u": hx(g1_bytes(u)),
                   "ut": hx(g1_bytes(ut)), "v": hx(g1_bytes(v)), "onePassY": hx(y1.to_bytes(32, "big")), "onePassV": hx(g1_bytes(v1))}
        delta = entered - registered
        if not accepted:
            outputs.update({"kangarooE": hx(gt_bytes(e)), "kangarooF": hx(gt_bytes(f))})
            if day == server_day:
                assert e == f12pow(f12inv(f), delta % BN_R)  # E = F^(−δ), docs/protocols/mpin.md §4 KANGAROO
                outputs["pinError"] = delta
        comment = "%s, %s, PIN %s" % ("time permit for day %d" % day if day else "no time permit",
                                      "server checks day %d" % server_day if server_day != day else "same day",
                                      "right" if delta == 0 else "off by %d" % delta)
        case(cases, comment, {"mpinId": hx(identity), "masterShare1": hx(shares[0].to_bytes(32, "big")),
                              "masterShare2": hx(shares[1].to_bytes(32, "big")), "pinRegistered": registered, "pinEntered": entered,
                              "day": day, "serverDay": server_day, "x": hx(x.to_bytes(32, "big")), "y": hx(y.to_bytes(32, "big")),
                              "time": time, "message": hx(message)}, outputs, "valid" if accepted else "invalid")
    return {"protocols/mpin-passes.json": document("MPIN-PASSES", cases)}


def dvs():
    """DVS (docs/protocols/mpin.md §5): Pa = z⁻¹·Q, identity mpinId ‖ Pa, CS = z·Σ sᵢ·A, TOKEN = CS − pin·A;
    U = x·A, y = SHA-256(t_be32 ‖ U ‖ h) mod r, V = −(x + y)·(TOKEN + pin·A); the platform accepts
    iff e(Pa, V)·e(sQ, y·A + U) = 1."""
    r = base.rng("protocols/mpin-dvs")
    _, q = generators()
    cases = []
    plan = [("alice@example.com", 1234, 1234, "sample document", None), ("bob@example.com", 999999, 999999, "Pay 100 EUR to Carol", None),
            ("carol@example.com", 5, 5, "", "time 0: no time prefix"), ("dave@example.com", 1234, 4321, "sample document", "wrong PIN"),
            ("erin@example.com", 8642, 8642, "the signed text", "another document hash"),
            ("frank@example.com", 8642, 8642, "the signed text", "another time"),
            ("grace@example.com", 31337, 31337, "the signed text", "another public key")]
    for user, registered, entered, text, variant in plan:
        identity0 = mpin_id(r, user)
        z = r.randrange(1, BN_R)
        pa = ec_mul(pow(z, -1, BN_R), q, g2_add)
        identity = identity0 + g2_bytes(pa)
        shares = [r.randrange(1, BN_R), r.randrange(1, BN_R)]
        server, cs, _ = issue(identity, shares)
        cs = mul(z, cs)
        a = a_of(identity)
        token = g1_add(cs, neg(mul(registered, a)))
        document_hash = sha256(text.encode())
        time = 0 if variant == "time 0: no time prefix" else 1700000000 + r.randrange(10 ** 8)
        x = r.randrange(1, BN_R)
        u = mul(x, a)
        y = challenge(time, g1_bytes(u) + document_hash)
        v = neg(mul(x + y, g1_add(token, mul(entered, a))))
        verify_hash, verify_time, verify_pa = document_hash, time, pa
        if variant == "another document hash":
            verify_hash = sha256(b"a different text")
        elif variant == "another time":
            verify_time = time + 1
        elif variant == "another public key":
            verify_pa = ec_mul(pow(r.randrange(1, BN_R), -1, BN_R), q, g2_add)
        verify_identity = identity0 + g2_bytes(verify_pa)
        verify_a = a_of(verify_identity)
        verify_y = challenge(verify_time, g1_bytes(u) + verify_hash)
        accepted = server_check(verify_pa, server, v, g1_add(mul(verify_y, verify_a), u)) == FP12_ONE
        assert accepted == (variant is None or variant.startswith("time 0"))
        case(cases, "DVS signature, " + (variant or "verifies"),
             {"mpinId": hx(identity0), "masterShare1": hx(shares[0].to_bytes(32, "big")), "masterShare2": hx(shares[1].to_bytes(32, "big")),
              "privateKey": hx(z.to_bytes(32, "big")), "pinRegistered": registered, "pinEntered": entered, "document": text,
              "time": time, "x": hx(x.to_bytes(32, "big")), "verifyHash": hx(verify_hash), "verifyTime": verify_time,
              "verifyPublicKey": hx(g2_bytes(verify_pa))},
             {"publicKey": hx(g2_bytes(pa)), "identity": hx(identity), "clientSecret": hx(g1_bytes(cs)), "token": hx(g1_bytes(token)),
              "hash": hx(document_hash), "u": hx(g1_bytes(u)), "y": hx(y.to_bytes(32, "big")), "v": hx(g1_bytes(v))},
             "valid" if accepted else "invalid")
    return {"protocols/mpin-dvs.json": document("MPIN-DVS", cases)}


def mpin():
    files = {}
    for producer in (__import__("generate_protocols_pairing").pairing_vectors, passes, dvs):
        files.update(producer())
    return files
