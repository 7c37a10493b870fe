"""BN254CX G1 and G2 vectors for Vectors/protocols (docs/protocols/mpin.md §2): affine arithmetic on plain
Python integers from the curve constants, independent of the engine. Called by
generate_protocols.py."""

import generate as base
from generate_protocols import case, document, hx


# ---- BN254CX groups (docs/protocols/mpin.md §2): G1 and G2 arithmetic in plain Python integers ----

BN_P = 0x2400000008702A0DB0BDDF647A6366D3243FD6EE18093EE1BE6623EF5C1B55B3
BN_R = 0x2400000008702A0DB0BDDF647A6366D2C43FD6EE0CC906CEBE11C0A636EB1F6D
BN_G1 = (BN_P - 1, 1)  # x = −1, y = 1 (§2.1)
BN_G2 = ((0x19682D2C7053B256358B2500F5C34BBB907C85BFA03E2726C0851CEEE4D2EC74, 0x1466B9EC3E19F64AA011C937A8E99743F81B97B0C209C30F47A58E8B2E29CFE1),
         (0x0A79EDD972332B8DD81E22157DAEE2096361B33D847EC1B30CFBFCEBCF0BE09F, 0x06160C39ECC4C09035C6E4512D8D3461C2864EA569D2EDEBED904B228898EE9D))


class Fp2:
    """a + b·i with i² = −1 (§2.2)."""

    def __init__(self, a, b=0):
        self.a, self.b = a % BN_P, b % BN_P

    def __add__(self, o):
        o = o if isinstance(o, Fp2) else Fp2(o)
        return Fp2(self.a + o.a, self.b + o.b)

    def __sub__(self, o):
        o = o if isinstance(o, Fp2) else Fp2(o)
        return Fp2(self.a - o.a, self.b - o.b)

    def __mul__(self, o):
        o = o if isinstance(o, Fp2) else Fp2(o)
        return Fp2(self.a * o.a - self.b * o.b, self.a * o.b + self.b * o.a)

    def __neg__(self):
        return Fp2(-self.a, -self.b)

    def __eq__(self, o):
        return self.a == o.a and self.b == o.b

    def inverse(self):
        norm = pow(self.a * self.a + self.b * self.b, -1, BN_P)
        return Fp2(self.a * norm, -self.b * norm)

    def __pow__(self, e):
        out, base_ = Fp2(1), self
        while e:
            if e & 1:
                out = out * base_
            base_, e = base_ * base_, e >> 1
        return out

    def sqrt(self):
        """Square root for p ≡ 3 mod 4 (Adj and Rodríguez-Henríquez, Algorithm 9), or None."""
        a1 = self ** ((BN_P - 3) // 4)
        alpha = a1 * a1 * self
        x0 = a1 * self
        x = Fp2(0, 1) * x0 if alpha == Fp2(-1) else (alpha + 1) ** ((BN_P - 1) // 2) * x0
        return x if x * x == self else None

    def bytes(self):
        return self.a.to_bytes(32, "big") + self.b.to_bytes(32, "big")  # real part first (§2.3)


def ec_add(p1, p2, field_one, inverse):
    """Affine addition on y² = x³ + b (a = 0); None is the point at infinity."""
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2:
        if y1 == y2 and not y1 == y1 * 0:
            slope = x1 * x1 * 3 * inverse(y1 * 2)
        else:
            return None
    else:
        slope = (y2 - y1) * inverse(x2 - x1)
    x3 = slope * slope - x1 - x2
    return x3, slope * (x1 - x3) - y1


def ec_mul(k, point_, add):
    out = None
    for bit in bin(k)[2:] if k else "":
        out = add(out, out)
        if bit == "1":
            out = add(out, point_)
    return out


class Fp1(int):
    """An integer mod p with the operators ec_add needs."""

    def __new__(cls, v):
        return int.__new__(cls, v % BN_P)

    def __add__(self, o):
        return Fp1(int(self) + int(o))

    def __sub__(self, o):
        return Fp1(int(self) - int(o))

    def __mul__(self, o):
        return Fp1(int(self) * int(o))

    __rmul__ = __mul__


def g1_add(p1, p2):
    return ec_add(p1, p2, 1, lambda v: Fp1(pow(int(v), -1, BN_P)))


def g2_add(p1, p2):
    return ec_add(p1, p2, Fp2(1), lambda v: v.inverse())


def g1_bytes(pt, compressed=False):
    if pt is None:
        return b""
    x, y = int(pt[0]), int(pt[1])
    if compressed:
        return bytes([3 if y & 1 else 2]) + x.to_bytes(32, "big")
    return b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big")


def g2_bytes(pt):
    return b"" if pt is None else pt[0].bytes() + pt[1].bytes()


def bn254cx():
    r = base.rng("protocols/bn254cx")
    g1 = (Fp1(BN_G1[0]), Fp1(BN_G1[1]))
    g2 = (Fp2(*BN_G2[0]), Fp2(*BN_G2[1]))
    assert int(g1[1]) ** 2 % BN_P == (int(g1[0]) ** 3 + 2) % BN_P
    assert g2[1] * g2[1] == g2[0] * g2[0] * g2[0] + Fp2(1, -1)  # the D-type twist, b/ξ = 1 − i (§2.2)
    assert ec_mul(BN_R, g1, g1_add) is None and ec_mul(BN_R, g2, g2_add) is None
    g1_cases, g2_cases = [], []
    scalars = [0, 1, 2, 3, BN_R - 1, BN_R - 2, (BN_R - 1) // 2, 2 ** 128, 2 ** 253] + [r.randrange(1, BN_R) for _ in range(15)]
    for index, k in enumerate(scalars):
        base_k = 1 if index % 5 == 0 else r.randrange(1, BN_R)
        p_, q_ = ec_mul(base_k, g1, g1_add), ec_mul(r.randrange(1, BN_R), g1, g1_add)
        kp = ec_mul(k, p_, g1_add)
        case(g1_cases, "k·P, k = %s" % (k if k < 2 ** 16 else "r − %d" % (BN_R - k) if BN_R - k < 2 ** 16 else "%d bits" % k.bit_length()),
             {"point": hx(g1_bytes(p_, compressed=index % 2 == 1)), "scalar": hx(k.to_bytes(32, "big")), "other": hx(g1_bytes(q_))},
             {"product": hx(g1_bytes(kp)), "compressedProduct": hx(g1_bytes(kp, True)), "sum": hx(g1_bytes(g1_add(p_, q_)))})
    good = g1_bytes(ec_mul(r.randrange(1, BN_R), g1, g1_add))
    x_no_root = next(x for x in range(1, 100) if pow((x ** 3 + 2) % BN_P, (BN_P - 1) // 2, BN_P) == BN_P - 1)
    for comment, encoding in [("y changed: off the curve", good[:-1] + bytes([good[-1] ^ 1])), ("x = p", b"\x04" + BN_P.to_bytes(32, "big") + good[33:]),
                              ("y + p", b"\x04" + good[1:33] + (int.from_bytes(good[33:], "big") + BN_P).to_bytes(33, "big")[1:]
                               if int.from_bytes(good[33:], "big") + BN_P < 2 ** 256 else b"\x04" + good[1:33] + b"\xff" * 32),
                              ("prefix 05", b"\x05" + good[1:]), ("compressed x without a square root", b"\x02" + x_no_root.to_bytes(32, "big")),
                              ("compressed x = p", b"\x03" + BN_P.to_bytes(32, "big")), ("truncated", good[:-1]), ("empty", b"")]:
        case(g1_cases, "invalid point: " + comment, {"point": hx(encoding), "scalar": hx(bytes(31) + b"\x01"), "other": hx(good)}, {}, "invalid")
    for index, k in enumerate(scalars[:12]):
        q_ = ec_mul(1 if index % 4 == 0 else r.randrange(1, BN_R), g2, g2_add)
        other = ec_mul(r.randrange(1, BN_R), g2, g2_add)
        case(g2_cases, "k·Q, k of %d bits" % k.bit_length(), {"point": hx(g2_bytes(q_)), "scalar": hx(k.to_bytes(32, "big")), "other": hx(g2_bytes(other))},
             {"product": hx(g2_bytes(ec_mul(k, q_, g2_add))), "sum": hx(g2_bytes(g2_add(q_, other)))})
    good = g2_bytes(ec_mul(r.randrange(1, BN_R), g2, g2_add))
    while True:  # a point on the twist outside the order-r subgroup (the cofactor is 2p − r)
        x = Fp2(r.randrange(BN_P), r.randrange(BN_P))
        y = (x * x * x + Fp2(1, -1)).sqrt()
        if y is not None and ec_mul(BN_R, (x, y), g2_add) is not None:
            break
    for comment, encoding in [("off the twist", good[:-1] + bytes([good[-1] ^ 1])), ("on the twist, not in G2", g2_bytes((x, y))),
                              ("x.a = p", BN_P.to_bytes(32, "big") + good[32:]), ("127 bytes", good[:-1]), ("with a 04 prefix", b"\x04" + good)]:
        case(g2_cases, "invalid point: " + comment, {"point": hx(encoding), "scalar": hx(bytes(31) + b"\x01"), "other": hx(good)}, {}, "invalid")
    return {"protocols/bn254cx-g1.json": document("BN254CX-G1", g1_cases), "protocols/bn254cx-g2.json": document("BN254CX-G2", g2_cases)}
