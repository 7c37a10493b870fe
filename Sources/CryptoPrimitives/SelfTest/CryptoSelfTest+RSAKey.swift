// The fixed RSA-2048 key of the start-up self-test (CryptoSelfTest.swift): PKCS #8 DER, Base64.
// Generated once with Python `cryptography` 48.0.0; its PKCS #1 v1.5 / SHA-256 signature of the
// test message, the expected value in CryptoSelfTest.swift, was computed there too. A test key
// only: it protects nothing.

extension CryptoSelfTest {
    static let rsaKeyPKCS8Base64 =
        "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDRCftqKs59AmFJVzi5QqWE0e0cdYNZIWgBTKm4N2toNzGvX0l+" +
        "mmWiWAJmVfjDUyHOP2Lol2LG9NbjFXuXEtYRnlFAn8373WiLeCY3CmXf3I/aHF4JkKtlUaVvuQjE2ReJqby1xl/4RpMV7tseBmi+" +
        "/DNAdwn+sRAqmLZeu9uRjAvuEoBucNNajIz4nqR1NuD/l9RVvZGCKi7o5IdBFZpw4RE46cK4decQ4E6gt3hzvcDQO7QliD5tR+aD" +
        "KkbB8w5H6hjW8XRL64BnmkLDqDSiUBkmVJpsmH6yLMfnWXjWbE4fc++mWGYCg6Kzo4FbtBfRTg33SutVuaRzP99oBw8NAgMBAAEC" +
        "ggEAP8qDikUQ6W4yAR8YZNS1TSCA8tfbovYCVq8t9dUXtmBtjZ6O/48fZ9jitpcSyIyUeuu2A9O65YsvDnJuWk55vDurgQSjZ/KL" +
        "plAenVpTd2rIDV/txI5893jgewUk62lyeOSu/WvRuqLS3PUcsf9ztKCjBU+uYaZoEA+1S5iZa0MbqL0NDVNXAYic+fqdPfwRbxOG" +
        "tX6VkTsx0gBHfpmUjwFynW60aas8tkhuy9ll1eZi7ETPWNBOz/SmM6hFcaT6If1oUk2lLYkSQ/1R8v28rwZ9woVIL4Wz/PlT8dXp" +
        "UGaN0U25SXLynJi9woA2K8xz8J1FMCGuNOTwZUcfsMRZUwKBgQD1shHQi53Pr3r3cnC+SLwt9hGlFoI0BJTS6Pwq2RWlzK0wqCE9" +
        "7UfqcA87yAg5Tdu1mdOHYf6lXncJ0kbAcIxpGItmW+YKNElWuJZp59HxGC7jL+T7JL6bwZFNqL+BJKURFL3xKnubTSM4v2VbQrkp" +
        "qcWEf7TYMbbjd9tgkdPbQwKBgQDZzliW66uxo5XbJnn+gyVzRUOF8x+z8j+kMOFihRtXAsIu57F/1Cnd3MPgHx2nSZ5e6xFSvaQW" +
        "JutbUhO/o43uqms7KomTGivOpaGcoRZnbAIiZa7dradLB6GNZEfw8dbTkaupvlaCYTXCNzBVx1TuxJp3Y0/suDRggNKmJdy/bwKB" +
        "gQCJzeR8CbLrx8q6ey+NKpKRXNCsvaEtt9wZJ6A4ECY6JkCFZ+etKicJ8Ow6ZYlnSqoOg0bHSklfS0qM8anJSdcXIzMcqDKwSn9P" +
        "6pxCrklsZln2Bujxi7x08+6hliJDNuB2YiHe4CsQAgXdUExzEUt1eMlV9aLjF48yqgkbcu9WrQKBgQDPcZO4sl+FwitRXdUlTh1W" +
        "K2sDYisYxSpOJGwV3HbMqYjvCadp+1WgxMoeZSRmF1zqRHLsXkiw/IJ/KK48gPcGkHOvF3WOkIeWuvQw7NAc0qc5waUJ54IFmRAK" +
        "Ta+jUYLtYLmh4vIcHaAJCW1U1ZQUEVaZTRJrgIoKO8fljPwxqwKBgBgX3nn3GIQedu8IfV2DlkCCQdEJGpko0ArViyeYWE4hj9PN" +
        "TkMh/u5UBJ0UlrpHnRRBpCL3CukuLbUZVXJb7PxM8Bp8kDEb3B8A+ey3a2mb+AuQyaFsoe3qP8oiIme2wqtWGV7evZX5ImU/Br5c" +
        "kc0TaGM4D3PaHNWDaj4kTOYT"
}
