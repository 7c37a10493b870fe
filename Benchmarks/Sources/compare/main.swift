import Crypto
import Glibc
func now() -> Double { var ts = timespec(); clock_gettime(CLOCK_MONOTONIC, &ts); return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9 }
let big = [UInt8](repeating: 0x61, count: 1 << 20)
var t0 = now()
var d = SHA256.hash(data: big)
for _ in 0..<50 { d = SHA256.hash(data: big) }
var t1 = now()
print("swift-crypto sha256 MB/s", 51.0 / (t1 - t0), d)
let key = SymmetricKey(size: .bits256)
let msg = [UInt8](repeating: 1, count: 32)
t0 = now()
var m = HMAC<SHA256>.authenticationCode(for: msg, using: key)
for _ in 0..<1_000_000 { m = HMAC<SHA256>.authenticationCode(for: msg, using: key) }
t1 = now()
print("swift-crypto hmac32 ns", (t1 - t0) / 1e6 * 1e9, m)
