// Test helpers shared by the client test targets: a small RSA test key, and reading the layout
// of a sealed record (SecureStore's SealedRecord: 4-byte JSON length, JSON, then the secrets) to
// check that a secret stays out of the JSON part.

/// Key material for tests only (published here, never a key for anything real).
public enum TestKeyMaterial {
    /// A 1024-bit RSA key in PKCS #8 PEM (small, so the unoptimised build parses it quickly).
    public static let rsa1024PKCS8PEM = """
        -----BEGIN PRIVATE KEY-----
        MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBALtEcFOVP0KtHTB/
        kWn4/PRRwyps60YTvNPU/s1DRIZ03/PxAktFi4usvlslr6mikcHn6UtFYPZpw7y9
        LnBoDwyg592jWXT040INxPrKIClntrySoo0CMBIXmSij23Gz/r9vAvB2HDLVAkFk
        4jcFzurJQXtBf+zq+/a/63NOOdxHAgMBAAECgYAXvJYMUiehmPXRNupEp3XQtihp
        0UKFMG1H4ICnnfYqoNfeQNdMmTUV8EB0pzM76kpVbMLqcpHWyhMwcj5Xqyj09fJ9
        BFIAO9DAb0ETd7hNvq8l0GZ0UQtmWt+/4C2K0BhPdiIozAjBOevH7pO33HEYE6EK
        puZozezqXvsKwkP4MQJBAPXxLR4G/oqLddmHydZHAnvzfLWOhpfCCl0cMfSo7UZQ
        TAre/cSgrLr4zK4jNmr0foBkiHD8X/kvR4hgD/+Jvb8CQQDC7PuwtmLiAd8Aoo7j
        5FMNQ7Y3XWj0UMWtqjYT9RFWMd6nHkeeuoGsiuS5WHWdEs2FoZ3KiI1Vt9e+ukTp
        dhN5AkAB24t6sZTUmQ8P0I2+t5SWORWVDXmIxedsIp1h+rCoGk0ou9xw0sHbO6vY
        GN39WtFlyNya9d0Htcq1hfw48uJjAkB4cxpAIyPNRpy3drvXRLKxYqMJaTY+ql7M
        pn5OLMRuv9g26nYVNmiE5zrY8TmUOxc2uRyZF3JGgpjVaaLFpMn5AkEAyX3T015B
        k+g3fnUt7va4f/LhRBPWDcv/lFxZ73UBP1Wcq3RfItTUVaG2+u023oxV7fozg2Yz
        n5hktaQdG41Hzg==
        -----END PRIVATE KEY-----

        """
}

/// Byte helpers for checking what a decrypted record holds.
public enum RecordBytes {
    /// Whether `needle` occurs in `haystack`.
    public static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
    }

    /// The JSON part of a decrypted record: the length-prefixed part of the sealed form (first
    /// byte 0), or all of it in the old form.
    public static func json(_ plaintext: [UInt8]) -> [UInt8] {
        guard plaintext.count >= 4, plaintext[0] == 0 else { return plaintext }
        let count = plaintext[0..<4].reduce(0) { $0 << 8 | Int($1) }
        return Array(plaintext[4..<min(plaintext.count, 4 + count)])
    }
}
