"""The BN254CX optimal-ate pairing (docs/protocols/mpin.md §2.2, §2.4) on plain Python integers, written for the
vector generator from the spec and the textbook definition, not from the engine: Fp12 is
Fp2[w]/(w⁶ − ξ) with ξ = 1 + i, the Miller loop is plain double-and-add over |6u + 2| with affine
lines on the D-type twist, and the final exponentiation is f^((p⁶ − 1)(p² + 1)) followed by a
plain power by (p⁴ − p² + 1)/r, so the value is f^((p¹² − 1)/r). Self-checked by bilinearity,
e^r = 1 and non-degeneracy. Writes Vectors/protocols/bn254cx-pairing.json; used by
generate_protocols_mpin.py for the M-Pin and DVS verifiers."""

import generate as base
from generate_protocols import case, hx
from generate_protocols_bn254cx import BN_G1, BN_G2, BN_P, BN_R, Fp1, Fp2, ec_mul, g1_add, g1_bytes, g2_add, g2_bytes

P = BN_P
U = -0x4000000003C012B1  # docs/protocols/mpin.md §2.1
ATE = abs(6 * U + 2)
REFERENCE = "Python integers from mpin.md: Fp2/Fp12 tower, affine G1/G2, Miller loop and final exponentiation written for the generator; hashlib"


def document(algorithm, cases):
    doc = base.document(algorithm, REFERENCE, cases)
    doc["generator"] = "Vectors/generate_protocols_mpin.py"
    return doc


assert P == 36 * U ** 4 + 36 * U ** 3 + 24 * U ** 2 + 6 * U + 1 and BN_R == 36 * U ** 4 + 36 * U ** 3 + 18 * U ** 2 + 6 * U + 1


# ---- Fp2 as (real, imaginary) tuples: fast enough for a few dozen pairings ----

def f2mul(x, y):
    return ((x[0] * y[0] - x[1] * y[1]) % P, (x[0] * y[1] + x[1] * y[0]) % P)


def f2add(x, y):
    return ((x[0] + y[0]) % P, (x[1] + y[1]) % P)


def f2sub(x, y):
    return ((x[0] - y[0]) % P, (x[1] - y[1]) % P)


def f2inv(x):
    norm = pow(x[0] * x[0] + x[1] * x[1], -1, P)
    return (x[0] * norm % P, -x[1] * norm % P)


def f2pow(x, e):
    out = (1, 0)
    while e:
        if e & 1:
            out = f2mul(out, x)
        x, e = f2mul(x, x), e >> 1
    return out


XI = (1, 1)
ZERO2, ONE2 = (0, 0), (1, 0)
# γ_k = ξ^(k(p−1)/6): w^p = γ_1·w, so (Σ c_k w^k)^p = Σ conj(c_k)·γ_k·w^k.
GAMMA = [f2pow(XI, k * (P - 1) // 6) for k in range(6)]
assert GAMMA[1] == (0x1359082FA63A0164AFE18B8AACA7189868677326F173F8215BD9083355C80EA3,
                    0x10A6F7D0623628A900DC53D9CDBC4E3ABBD863C7269546C0628D1BBC06534710)  # the constant quoted in §2.2


# ---- Fp12 = Fp2[w]/(w⁶ − ξ): a list of six Fp2 coefficients of w⁰ … w⁵ ----

FP12_ONE = [ONE2] + [ZERO2] * 5


def f12mul(x, y):
    """Schoolbook product, reduced once with w⁶ = ξ."""
    re, im = [0] * 11, [0] * 11
    for i, (a, b) in enumerate(x):
        if a == 0 and b == 0:
            continue
        for j, (c, d) in enumerate(y):
            re[i + j] += a * c - b * d
            im[i + j] += a * d + b * c
    for k in range(10, 5, -1):  # c·w^k = c·ξ·w^(k−6), ξ·(a + bi) = (a − b) + (a + b)i
        re[k - 6] += re[k] - im[k]
        im[k - 6] += re[k] + im[k]
    return [(re[k] % P, im[k] % P) for k in range(6)]


def f12conj(x):
    """The p⁶-power: w^(p⁶) = −w, so odd powers change sign."""
    return [c if k % 2 == 0 else ((-c[0]) % P, (-c[1]) % P) for k, c in enumerate(x)]


def f12frob(x, times=1):
    for _ in range(times):
        x = [f2mul((c[0], (-c[1]) % P), GAMMA[k]) for k, c in enumerate(x)]
    return x


def f6inv(a0, a1, a2):
    """Inverse in Fp6 = Fp2[v]/(v³ − ξ) (v = w²), by the adjugate: c·a = t with t in Fp2."""
    c0 = f2sub(f2mul(a0, a0), f2mul(XI, f2mul(a1, a2)))
    c1 = f2sub(f2mul(XI, f2mul(a2, a2)), f2mul(a0, a1))
    c2 = f2sub(f2mul(a1, a1), f2mul(a0, a2))
    t = f2add(f2mul(a0, c0), f2mul(XI, f2add(f2mul(a2, c1), f2mul(a1, c2))))
    t = f2inv(t)
    return f2mul(c0, t), f2mul(c1, t), f2mul(c2, t)


def f12inv(x):
    """x⁻¹ = conj(x)·(x·conj(x))⁻¹; x·conj(x) has only even powers of w, i.e. lies in Fp6."""
    n = f12mul(x, f12conj(x))
    assert n[1] == n[3] == n[5] == ZERO2
    c0, c1, c2 = f6inv(n[0], n[2], n[4])
    out = f12mul(f12conj(x), [c0, ZERO2, c1, ZERO2, c2, ZERO2])
    return out


def f12pow(x, e):
    out = FP12_ONE
    for bit in bin(e)[2:] if e else "":
        out = f12mul(out, out)
        if bit == "1":
            out = f12mul(out, x)
    return out


def gt_bytes(x):
    """docs/protocols/mpin.md §2.3: Fp12 = a + b·t + c·t² (t = w), Fp4 = e + f·s (s = w³), so the order is
    w⁰, w³, w¹, w⁴, w², w⁵; each Fp2 real part first, each Fp 32 bytes big-endian."""
    return b"".join(x[k][0].to_bytes(32, "big") + x[k][1].to_bytes(32, "big") for k in (0, 3, 1, 4, 2, 5))


# ---- Miller loop (docs/protocols/mpin.md §2.4): twist points are ((xa, xb), (ya, yb)) ----

def line(t, q, p_):
    """The line through T and Q (tangent when equal) on E(Fp12), untwisted (x′w², y′w³), at the
    G1 point P: y_P − λ′·x_P·w + (λ′·x_T − y_T)·w³, with λ′ the slope on the twist. Returns the
    value and T + Q."""
    (x1, y1), (x2, y2) = t, q
    if x1 == x2:
        assert y1 == y2 and y1 != ZERO2, "vertical line: not on the loop of a point of order r"
        slope = f2mul(f2mul((3, 0), f2mul(x1, x1)), f2inv(f2add(y1, y1)))
    else:
        slope = f2mul(f2sub(y2, y1), f2inv(f2sub(x2, x1)))
    x3 = f2sub(f2sub(f2mul(slope, slope), x1), x2)
    y3 = f2sub(f2mul(slope, f2sub(x1, x3)), y1)
    xp, yp = p_
    value = [(yp % P, 0), f2mul(slope, ((-xp) % P, 0)), ZERO2, f2sub(f2mul(slope, x1), y1), ZERO2, ZERO2]
    return value, (x3, y3)


def twist_frob(q):
    """π(Q) on the twist: (conj(x)·ξ^((p−1)/3), conj(y)·ξ^((p−1)/2)) (docs/protocols/mpin.md §2.2)."""
    (x, y) = q
    return f2mul((x[0], (-x[1]) % P), GAMMA[2]), f2mul((y[0], (-y[1]) % P), GAMMA[3])


def miller(q, p_):
    """f_{6u+2,Q}(P)·l_{[6u+2]Q, π(Q)}(P)·l_{[6u+2]Q + π(Q), −π²(Q)}(P), up to factors the final
    exponentiation removes. u < 0: f_{−n} = 1/(f_n·v_{nQ}), so the accumulator is inverted (the
    vertical line lies in Fp6) and T negated."""
    f, t = FP12_ONE, q
    for bit in bin(ATE)[3:]:
        value, t = line(t, t, p_)
        f = f12mul(f12mul(f, f), value)
        if bit == "1":
            value, t = line(t, q, p_)
            f = f12mul(f, value)
    f = f12inv(f)
    t = (t[0], ((-t[1][0]) % P, (-t[1][1]) % P))
    q1 = twist_frob(q)
    q2 = twist_frob(q1)
    q2 = (q2[0], ((-q2[1][0]) % P, (-q2[1][1]) % P))
    value, t = line(t, q1, p_)
    f = f12mul(f, value)
    value, t = line(t, q2, p_)
    return f12mul(f, value)


HARD = (P ** 4 - P ** 2 + 1) // BN_R
assert HARD * BN_R == P ** 4 - P ** 2 + 1


def final_exp(f):
    f = f12mul(f12conj(f), f12inv(f))       # ^(p⁶ − 1)
    f = f12mul(f12frob(f, 2), f)            # ^(p² + 1)
    return f12pow(f, HARD)                  # ^((p⁴ − p² + 1)/r)


def to_affine(q):
    """A point from the affine helpers of generate_protocols_bn254cx (Fp1/Fp2 objects) as tuples."""
    if isinstance(q[0], Fp2):
        return (q[0].a, q[0].b), (q[1].a, q[1].b)
    return int(q[0]), int(q[1])


def multi_pairing(pairs):
    """Π e(Q_i, P_i) with one final exponentiation; pairs of (G2, G1) helper points; a pair with
    a point at infinity contributes 1."""
    f = FP12_ONE
    for q, p_ in pairs:
        if q is not None and p_ is not None:
            f = f12mul(f, miller(to_affine(q), to_affine(p_)))
    return final_exp(f)


def pairing(q, p_):
    return multi_pairing([(q, p_)])


def generators():
    return (Fp1(BN_G1[0]), Fp1(BN_G1[1])), (Fp2(*BN_G2[0]), Fp2(*BN_G2[1]))


def self_check():
    """Bilinearity, e^r = 1, non-degeneracy and the inverse, before anything is written."""
    g1, g2 = generators()
    e = pairing(g2, g1)
    assert e != FP12_ONE and f12pow(e, BN_R) == FP12_ONE
    assert f12mul(e, f12inv(e)) == FP12_ONE and f12frob(e, 6) == f12conj(e)
    a, b = 0x1234567890ABCDEF1234567, 0xFEDCBA0987654321
    assert pairing(ec_mul(b, g2, g2_add), ec_mul(a, g1, g1_add)) == f12pow(e, a * b % BN_R)
    assert pairing(g2, ec_mul(a + b, g1, g1_add)) == f12mul(pairing(g2, ec_mul(a, g1, g1_add)), pairing(g2, ec_mul(b, g1, g1_add)))
    return e


def pairing_vectors():
    """e(aP, bQ) for small and random a, b; equal values from different factorisations of a·b;
    double pairings e(Q1, P1)·e(Q2, P2) including ones that multiply to 1."""
    gen = self_check()
    r = base.rng("protocols/bn254cx-pairing")
    g1, g2 = generators()
    cases = []
    pairs = [(1, 1), (2, 1), (1, 2), (6, 1), (2, 3), (BN_R - 1, 1), (1, BN_R - 1)] + [(r.randrange(1, BN_R), r.randrange(1, BN_R)) for _ in range(4)]
    for a, b in pairs:
        p_, q_ = ec_mul(a, g1, g1_add), ec_mul(b, g2, g2_add)
        value = pairing(q_, p_)
        assert value == f12pow(gen, a * b % BN_R)  # bilinearity against e(G2, G1)
        name = lambda k: str(k) if k < 2 ** 16 else "r − %d" % (BN_R - k) if BN_R - k < 2 ** 16 else "random"
        case(cases, "e(b·Q, a·P), a = %s, b = %s" % (name(a), name(b)), {"g1": hx(g1_bytes(p_)), "g2": hx(g2_bytes(q_))},
             {"gt": hx(gt_bytes(value))})
    for index in range(3):
        a1, b1 = r.randrange(1, BN_R), r.randrange(1, BN_R)
        if index == 0:  # e(b·Q, a·P)·e(Q, −ab·P) = 1, the shape of the M-Pin verifier
            a2, b2, comment = (-a1 * b1) % BN_R, 1, "double pairing that multiplies to 1"
        else:
            a2, b2, comment = r.randrange(1, BN_R), r.randrange(1, BN_R), "double pairing"
        p1, q1, p2, q2 = ec_mul(a1, g1, g1_add), ec_mul(b1, g2, g2_add), ec_mul(a2, g1, g1_add), ec_mul(b2, g2, g2_add)
        value = multi_pairing([(q1, p1), (q2, p2)])
        assert value == f12pow(gen, (a1 * b1 + a2 * b2) % BN_R)
        assert (value == FP12_ONE) == (index == 0)
        case(cases, comment, {"g1": hx(g1_bytes(p1)), "g2": hx(g2_bytes(q1)), "g1b": hx(g1_bytes(p2)), "g2b": hx(g2_bytes(q2))},
             {"gt": hx(gt_bytes(value))})
    return {"protocols/bn254cx-pairing.json": document("BN254CX-PAIRING", cases)}
