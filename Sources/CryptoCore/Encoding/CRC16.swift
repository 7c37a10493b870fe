// CRC-16/ARC, the checksum PowerAuth appends to activation and recovery codes (docs/protocols/powerauth.md §3).

/// CRC-16/ARC: polynomial 0x8005 (reflected 0xA001), initial value 0, input and output
/// reflected, no final XOR. Check value: `"123456789"` → `0xBB3D`.
public enum CRC16 {
    /// The CRC-16/ARC of `bytes` (bitwise; the input is public).
    public static func arc(_ bytes: some Sequence<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 {
                let lowBit = crc & 1
                crc = (crc >> 1) ^ (0xA001 & (0 &- lowBit))
            }
        }
        return crc
    }
}
