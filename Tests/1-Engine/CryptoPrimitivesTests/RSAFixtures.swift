// RSA test keys and known answers, all produced outside SwiftMFA: the 1024-bit key by
// `openssl genpkey` (OpenSSL 3.0.19), its other encodings, signatures and ciphertexts by
// pyca/cryptography 48.0.0; the unbalanced key (primes of 1320 and 728 bits from
// `openssl prime -generate`) assembled and signed by pyca/cryptography.

import TestSupport

enum RSAFixtures {
    static let message = Array("SwiftMFA RSA test message".utf8)
    static let wrappedKey = Array("wrapped AES key 0123456789abcdef".utf8)

    static let pkcs8PEM = TestKeyMaterial.rsa1024PKCS8PEM
    static let pkcs1PEM = """
        -----BEGIN RSA PRIVATE KEY-----
        MIICXAIBAAKBgQC7RHBTlT9CrR0wf5Fp+Pz0UcMqbOtGE7zT1P7NQ0SGdN/z8QJL
        RYuLrL5bJa+popHB5+lLRWD2acO8vS5waA8MoOfdo1l09ONCDcT6yiApZ7a8kqKN
        AjASF5koo9txs/6/bwLwdhwy1QJBZOI3Bc7qyUF7QX/s6vv2v+tzTjncRwIDAQAB
        AoGAF7yWDFInoZj10TbqRKd10LYoadFChTBtR+CAp532KqDX3kDXTJk1FfBAdKcz
        O+pKVWzC6nKR1soTMHI+V6so9PXyfQRSADvQwG9BE3e4Tb6vJdBmdFELZlrfv+At
        itAYT3YiKMwIwTnrx+6Tt9xxGBOhCqbmaM3s6l77CsJD+DECQQD18S0eBv6Ki3XZ
        h8nWRwJ783y1joaXwgpdHDH0qO1GUEwK3v3EoKy6+MyuIzZq9H6AZIhw/F/5L0eI
        YA//ib2/AkEAwuz7sLZi4gHfAKKO4+RTDUO2N11o9FDFrao2E/URVjHepx5HnrqB
        rIrkuVh1nRLNhaGdyoiNVbfXvrpE6XYTeQJAAduLerGU1JkPD9CNvreUljkVlQ15
        iMXnbCKdYfqwqBpNKLvccNLB2zur2Bjd/VrRZcjcmvXdB7XKtYX8OPLiYwJAeHMa
        QCMjzUact3a710SysWKjCWk2PqpezKZ+TizEbr/YNup2FTZohOc62PE5lDsXNrkc
        mRdyRoKY1WmixaTJ+QJBAMl909NeQZPoN351Le72uH/y4UQT1g3L/5RcWe91AT9V
        nKt0XyLU1FWhtvrtNt6MVe36M4NmM5+YZLWkHRuNR84=
        -----END RSA PRIVATE KEY-----

        """
    static let spkiPEM = """
        -----BEGIN PUBLIC KEY-----
        MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC7RHBTlT9CrR0wf5Fp+Pz0UcMq
        bOtGE7zT1P7NQ0SGdN/z8QJLRYuLrL5bJa+popHB5+lLRWD2acO8vS5waA8MoOfd
        o1l09ONCDcT6yiApZ7a8kqKNAjASF5koo9txs/6/bwLwdhwy1QJBZOI3Bc7qyUF7
        QX/s6vv2v+tzTjncRwIDAQAB
        -----END PUBLIC KEY-----

        """
    static let pkcs1PublicPEM = """
        -----BEGIN RSA PUBLIC KEY-----
        MIGJAoGBALtEcFOVP0KtHTB/kWn4/PRRwyps60YTvNPU/s1DRIZ03/PxAktFi4us
        vlslr6mikcHn6UtFYPZpw7y9LnBoDwyg592jWXT040INxPrKIClntrySoo0CMBIX
        mSij23Gz/r9vAvB2HDLVAkFk4jcFzurJQXtBf+zq+/a/63NOOdxHAgMBAAE=
        -----END RSA PUBLIC KEY-----

        """
    static let modulus = TestHex.bytes(
        "bb447053953f42ad1d307f9169f8fcf451c32a6ceb4613bcd3d4fecd43448674dff3f1024b458b8bacbe5b25afa9a291"
            + "c1e7e94b4560f669c3bcbd2e70680f0ca0e7dda35974f4e3420dc4faca202967b6bc92a28d023012179928a3db71b3fe"
            + "bf6f02f0761c32d5024164e23705ceeac9417b417feceafbf6bfeb734e39dc47")
    static let privateExponent = TestHex.bytes(
        "17bc960c5227a198f5d136ea44a775d0b62869d14285306d47e080a79df62aa0d7de40d74c993515f04074a7333bea4a"
            + "556cc2ea7291d6ca1330723e57ab28f4f5f27d0452003bd0c06f411377b84dbeaf25d06674510b665adfbfe02d8ad018"
            + "4f762228cc08c139ebc7ee93b7dc711813a10aa6e668cdecea5efb0ac243f831")

    /// PKCS #1 v1.5 and PSS (salt 0, then salt 32) SHA-256 signatures of `message`.
    static let pkcs1Signature = TestHex.bytes(
        "8d95ccb4b60fa0c107d44172673e2373dc97fc919446357b91c15fc3ea2ba28fedd8961d054fde43e3927c5cc2185c4c"
            + "e12ffc0b31dcbd48cdde7dde05845943146aeb14688c69e846fbca0f43167bcd3aa3651bdac72964b0fde443c067f6ca"
            + "fd5c0b01b853a7025157447653e804d5d7a3f738bfe36fed351df9e0b28e864b")
    static let pssZeroSaltSignature = TestHex.bytes(
        "a18ef1f82e1c41a6af525b118cb87199329666e2ec8c269e058b99cd51bd8a3cbcdf220efae47d479338421d6030264e"
            + "a9864723cfc3e73aebe26969e20d85b702d18b1bc0eadbba3fbfab540f23f1b3a27ee0ec454c8d4e088a65ca31f92aa0"
            + "689ec821e912d8da93572cbefbfdd05a659a6eb8da0cd82f8922f47146c397c6")
    static let pssSalt32Signature = TestHex.bytes(
        "13a32afd9d78abea205e608f44693d035ddc8fe955284b90221185ae0ad1e29971c0d2e7f3dcdefb8008d32933249aba"
            + "50bca2ba5b773f07047f47a01cc6cb9f93e0303fc89842ba597aa0d650133554b1a93006a5e70d970fb7e957307428b6"
            + "933ce78358b4aee79522efe8683d2519228e7b60c7277bcd9fd67862ddc323dc")

    /// `wrappedKey` encrypted by pyca: OAEP SHA-256 with label "label", OAEP SHA-256/MGF1-SHA-1
    /// without a label, and PKCS #1 v1.5.
    static let oaepLabelledCiphertext = TestHex.bytes(
        "8d26c2ded665e724824e24df36e4f446b7989a470d8ab09a494fe8a702c44c1aea346d5641dd01d16b460dd2f91b3a52"
            + "f6111a08d37ba3696bf6d1f702113ca27f145110bfe0bca539cc3736d70aecfda81783dcdc76e97f637572bff81e82e8"
            + "63d6ed324b9921c0af337cd6b44a90e41e7a8b56cc7b9baaf344788bb88197d7")
    static let oaepMGF1SHA1Ciphertext = TestHex.bytes(
        "8e1744a580e203f3bd5dea80ac94ee9cb0cfad4402c0935b33269b50e2f0c0a532074ed1931c4591d7974049be08a203"
            + "d7e61c0ff343ba473d72fce6b64f0a981e04a04ce716685f7c7d3ffcf99701d3f393ecf05ef7357e7aeb963df0544a7a"
            + "773739a6453ea180d1ee47ea6e4e9c82e5885250859cacc58cfe93abd8548c20")
    static let pkcs1Ciphertext = TestHex.bytes(
        "324acd32fb498fab9b984d9d802492b359c58254154af0ab37ebfcba7b90455a9c8ee999e9ac39b391e855a143a609c5"
            + "73d0bb87e1c9df0ec9cd2336b62d53e2d4a75e9f524fbf076321c7054ca2dd0e4086a5600429d28a0769189eac00176e"
            + "6ffa0e2d06f86d416d08e12792132a5620f1cefc91b0863d329267968bf1ca5a")

    /// A 2048-bit key whose primes (1320 and 728 bits) do not fit half the modulus width, and its
    /// PKCS #1 v1.5 SHA-256 signature of `message`.
    static let unbalancedPEM = """
        -----BEGIN PRIVATE KEY-----
        MIIE4AIBADANBgkqhkiG9w0BAQEFAASCBMowggTGAgEAAoIBAQDPbn5WCCNxvH+Y
        EZ7np0Kxh5fxoVTncHRYamdFGdEdHJwevfUV0eZ3F9ivZdNZAlrYCFMtTRd5Zkbq
        3Sr2xeRfDofhTIpZ87/6fTXWx5wtmg5FhbpZvVzxeXUaOTQ1XP6W7Vqx3BHt9xek
        kOLhJeWv/X3D2EPT5Z1CGx10Nv6DaoAsbRfU18SGOZUmaOTISPihCDp4UCJt47M/
        wJVyGbFzLWL3ce/FkIPVPzfGEU3qM+eRAHvTsvjIiKibm8f2nS7XzpLUjs/O8Y+O
        j1ao3DCfhaNPrPCVwA87o0VLK0T4JlrPnRbXoefHLutRI+ZNiHNq77XviDYWqYXU
        fbcq1Y5HAgMBAAECggEADM8m8AsanThlrK9R3749aRcVc+9hfdU86gTQEb1RY3nT
        zjYuv0Ux9SK817/y+CkkEPkaoc6D55RARtqXf5uiyZftHiWK2Zkqvr4ip/u1kj9U
        KEjkxAvkhGjaqVAFut86nIo8Gqztq0Zg4DJK+xhMe4nBqqP+b3X8csEFsnFt1sSd
        cuBt3kAiF9B1GqTVBe8PHHJLRXl6fFXXFsSAqv//7Z0zQJfoD1Ax01eQHxzZ9FtN
        uX+TiWvWa4RySjWb/ZEDjs5MfPRXZZtCyKN2cCjnT6H+looH/8wi+j11KL8hNugu
        wveikiO2I/bJ+LZFXHJLPpkazLH4dSMov8uSLXCz8QKBpgDw1eY7T7MF222KUg8b
        1cGXEv5KrRU/xXkYyDH/DJtEpW0vcuStGKeIDn1b03TLZQFYZ5yyKhBWnxAU7b+I
        hTkSqdiItpkfirRyNU0guCRFx57Ca0R5g/32htNSigSUS/Oyfk//E3Wg5rNHOZF3
        bA7ld4/eEVM6H3evEsDjKDdFRTNRPezl7viAxJ8fplSFxtMEQc9Nuno3Ny0/I+gl
        4lUJ2i/fUHkCXADcfiVrLXgUxpAVjLZj1JDt8f8YSMI0aS4fgD3u3tX9bIGvXGIh
        FEOzILGj4t/ZN7ZewQU63fGH/NI45dvLkqP2c2+VI91cRBLk2odKZYpY+j5T/IeK
        kMX0Q6S/AoGmAJMN+OwEaUrNRmCsZH9ZkUC/HzjX4N60pJHGRAj5WKGc5UOQwyMS
        p9FDD7aPMoSzYxPpCFwdpSZPL9GnrkkdF9FWllo8LNl+p1oJQ9QTvEpDbqRGPWR5
        fQwYHVcL4WnvypkV2aDl7/BUjemStEkYWSwySk2NhKU766eiKtdJih4o+AHGby2j
        MmfmJ0d7F6cr1VOHH57Vm6S1c1JXiXwAbG58pLiV+QJbBqUKjaNOJhohx3R5HqMO
        Rw1u6ZVvvNKaoDpmI2e1vTBi7Bz1nBeXPrOyhsTUiCBEr7BTbwW3PKji0PIkYIsn
        w8qQx0bQafJnO1xWjWhn9ex8ql1G3GcmgAj10wKBpQ6YfbaNpUmT1AppIufXv/6P
        HTE5lPo0Gw5Q+VWtVSCSH2SHku6bFGhndESo0W8SL1ilQOqlkvqPMJrDj5aI6xHp
        KTKhEmGmeKr7LO2qPqBQaEX/3xiUG/QKHh5hKz6plRl8Dh0+4nouM7nv40GxS+oB
        qhUNdX19HOnNEYLQ7FLqYFMuwRLL5mzMrFxtL10rQliNH2hv6TVZo+YF8MeiHoTl
        KGB5pA==
        -----END PRIVATE KEY-----

        """
    static let unbalancedSignature = TestHex.bytes(
        "6d66dd05925aca581d0469e42f0ac96b83d7cfeb8b6fb87ca828f8aa26eadcc9fa68f52a73e3767203c8207a61c862e0"
            + "875d00e182b0b4a5ed42383ed256aa63d271cfeca77d88dee082856e0dee714c54d84585e358de30bc9c4488af42c9c1"
            + "9043462fc9591c1b6121371a9feb6a5ca4c8ca5b535f439e2c8f5a1f9ae5a28b36b525db67e533a19dcc3fb289223d7d"
            + "388918c690b40fd675fac62dea1fbe903d51cf7bae89eb2df98154cd13d79c0279152cdcb62beba419a43b9fe2934656"
            + "dfd2408323c32ffa1921cd3e9ed097cc6f280f831e81521e4c76cc45ca51b43d89df7684b1c3c9d3814942ff26090f9d"
            + "2953b0b84df65f78870c151a16c4c26f")
}
