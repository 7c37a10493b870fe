// Fixed RSA keys for the benchmark rows, shared with Benchmarks/compare so both sides run the
// same keys. Generated once with `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:N`
// (OpenSSL 3, e = 65537); benchmark material only, never used for anything else.

extension BenchmarkFixtures {
    /// A 2048-bit RSA private key, PKCS #8 PEM.
    public static let rsa2048PrivateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDhCByrMUrYb/xJ
        hMTCqBZ/XbRHTBtPxoYxqgJbTbD4iHG3iWRIWdJNU3dyPL993yD4t6R9DnhtGJ11
        nbCQNwD8YWPSaMCcaLmXjrE7mW2sp5PnVwhOEqxwenCVPCocL3feuNtOrID7lydI
        iXxFkI/bw8T24Xsljq9rA8hhvMj9/TWGlxYBKJpPJx1VZ5T69HWB5ctUSccyrM0y
        LehEXU6nhwpYa6BE7fTEfSZ34uMRb9bwf9lvpBppT7ZVhsqyVF5KSTVNsPIQmGof
        24rRjk96mWIMXgFMD54BC1DD1aHOFW2kQXugzyG3NQgLQnvAAtiUdR6T5CZ/RtLP
        o3QRfe3tAgMBAAECggEAY5oTEmTZc24xtRq6ekwq1QoVIt+ZURiWSgItU9tR4teF
        uc5qoCl9j3NLsbkYqu5pahziheWzQNp9y1LWFSb7XToAFGAALNqfluj2ImKZLCvq
        J6Gaj+/s+kX/cdZ07w/Fl0Or8ikhV/qBzTXpVuMTAZsnoXyQ5MFAfHXqqfQE5IHr
        Xgshb+QJ2pY3m3QPMuBHw23w/t6ygE6vyDYfTLr7DGbMNLYu9Wge8pcf6LQfxl/e
        QjrSwQItFL3xDL0Vb6THw5qsRVXei7P0r9Z0k96zbQeNxSRouQwXidZTyJnQyOos
        ZpkuZHQdkZzUZQTLqPTSV7JaWsthAkiiiNGsv8/JwwKBgQD/c7JBgvhle0vIX3vc
        ouGAAG+yj2Hopvya+Yum7ACYRob3XiacUsnU76RFbbC8e2ktMKcTa5JerZ/7j9FQ
        y80e1/TdXWwQMJFo+b5dwyV+eEoZpQYFIP46d86DSpcaIjWzH4hhlg6mt+gIpKD0
        uBeAyvNTsK4nScJVZ/VzJVd0pwKBgQDhg7UusjfVa6a/vsvlC3Y3SaTU8acZ/01w
        s2vNk309cmIRwVaqHeDs49GUnl44VpEAwdhQkfsT9wBIzP0UJ+5ENFdRmPWH2Pi1
        XimHG1hJ19IJL7G0SnqTrKDPVh1AMXaCsi1TnxrsBnxHdxsrYeFVF0GWhpU4IX3d
        GSH1azZXSwKBgFDSSyC9DlgVRWnVA/xPsGbuPGjTQpf4VU23DH84hgunrMYRDMhC
        zUbIt0GcLeHEbgd1MDdNvpaj+kz+OKyGfpR2oSt0hl8s7qS294r01iUIa/FnK9tt
        j+Hxy+3wKJSFJFZS8LRnZKVM5GXvqFkk8ZK3I3tkGAWoKYsaBCd1NhFbAoGAAYuG
        dUBxU3v+U3f6K6KNd8mAYJkbPPlbzXbdOTZWeFJNS7PYZSf5P4Y8DFmdaaNmMOwj
        EEI/xx49GUKWRUoUvtDg/EUhAYJCCfQQMsXEMBVTcg6qmAKenl5jZ6g+YQ81saWI
        2/bOF2nf9hlhzUVJZuzW3TIk2ZKZKyed7PGEGMsCgYEA76C4qNVE8MfsUNkDVTL3
        iO6jEBL/GVYV8PqgSs0TXqhQNjJyZ1wNjtk1om4kM3mVsUi78erqK/a96rPwJZp+
        F5LubYLWqj6h1YFqifP/rVgSxj0X6h46zpWoPIIMl9sznMqmctd03er2QQtyF6zU
        7ZN9JxZsWz827FibP24hWMI=
        -----END PRIVATE KEY-----
        """

    /// A 3072-bit RSA private key, PKCS #8 PEM.
    public static let rsa3072PrivateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIIG/AIBADANBgkqhkiG9w0BAQEFAASCBuYwggbiAgEAAoIBgQDDRGgVbXiDLpVp
        Y/iAAv9TENvvnobrkBRgX5bvnCcYNs4YROYolq9LalcP0jNNZLZVqrUxb3agL4O7
        xTW/MYxpuADLTSYAC4menr2Uzu4mLSzeejTbGpeh6KcUYuF2M1VfBjv63QvE3XmX
        X4ZcBKBbHdswpPRQU0jQFdrzCu1Y0LoMluis3fePluGd1y3x2xZDBFByNYZUJpoK
        MtlFeFSpI1IHUHKaOs5wSLPyFPwMf1A7tk251nYgjZMvOmoXC2h+vfz0kf3OaiD1
        n3hR/Rgy2O0HsvPeMVfNR+3pDix0/gnSqFvmqy59EmOe2zfutNmEKh7ijCpD1Xsu
        GqywDwGqwJuQ1ZLo1PrUUZOLkuqwew0uABpBMsJebUVVHwpdWVqUr3+A89Fjnd8D
        shf2SIbnpbDwyRkYJb48dH3bOpF/QLAXG1uByZGFLwKLB+4lQzJsiyWWdO0g71oU
        0wdqo6fQF5gEpfK5LVEPODy9BoV8ZEa/ilWQ3LsllVWiaACyI2MCAwEAAQKCAYAL
        RLlU8zpPJ7MLn+9JQ+MEIibvDxDuKyRh42JMdZBz/0WpdOBrWzbGfV6E1TaMstEq
        5G0Ma0hHOja58UmGvQ9DUpEJKmyU+BV7B+Ic4kwv+89pD1hZhJFXkJuDu6kTLycw
        EqYHdhYlyDoqGCMi0EmIuJJbnklTEVtUVs6J1AmaZIE4FMVcpHqS2LwwZaiLGn+Q
        YoFZ9ejIlmmxSPns3mLUV+t17JiQefBL3oYz5C4fcoFo0L5viQbMHh9uTEqvBcNq
        KEiyfyz36QDy2TjTyXskC7UoOhrfklZ5fo5chvTW8GPttV6t4tpOb6L7nheG/zjd
        6iZODr1wFb7VgHr5rB515ga/BZA4TO3EHeCenP4+QgU6MZB3ze80dSoLaOGkxy8X
        m64mTPESgEBGpKJsvI7h/WrVz6gjUyxL6cV5FCTQqKSQYPdICDsiQuzzUP9DMf2F
        0qPHtn/Q9HeB/t5YwqSE1u/Oe7AYDJFcCxz7kpb2L5fz16HgK3fvs9VsYzRZv7EC
        gcEA6c2FZnzO83N61Gy52+Fe0SWzR5w8lmT5HVyx5Nl84iiga1gV1saozEV/WNQt
        07UH/WXhe1+2C6qfd3JgqPn0zPpyLcDFdE/fsSTPfr9x9fn7HOnyYKCRMshr35Jh
        jFMRhQ+hsE6qXFTo3jI4zUGH4gaWIYsdKeTEYxf+sYsvPanGAqesjPBmj//hiAoq
        k+68iz+Ey4ji9QpXhL3fgOPuoVad03jirou9GLpQyyWfnZiUKNqEOxjPJ4XVUyFW
        TIK/AoHBANXOSzvIDb/jxfQbEyPHDM58ljfQHAYO1l9vPOQIMHXqM4QyVDEXi/dW
        Eaz6PIcdnGGaqfZVPKiWJqDobxSLxJK93CaL2etN3gLX+CMwjcNJMbsRX2zLqNF1
        BuhJk3MmyPCSEwUZFBz9xil/zKfyCdCrGPdqhuXFiWlmJm7A/XsGyg++113vSnev
        P/80SDmnzgYbddqbYuGNhkEhuRBDxAxE7V7VKcf697H1ZB06e2kdUjzS5lT/WHyE
        7uYLdJZcXQKBwAxhE2Ufyp1dSe2hbB3WSvzr8Bgkj5iu8/m4BLtHQLOAzy2f1lgu
        4JUgQOPlKCADf87M7ClqIetwN01NwwxvX6TSxeTiRhIogIGSn2HopRIPEFqxkGHJ
        Xqa/seZ+i6ewZkcTUs5Q+/gzjrjlE9jaVWWET8Kq6Ppk4HkWtieUZQXwzUkqs5oq
        yGNreveHAkYe5+C/ljponwu2Znfizci3SNVGDsk5p1bykyqSAuEettrTT1TybPns
        EFvZXDgwla8rZQKBwB1TT1Riyyf/uN4TfJuSqLoFsqDzJXTbQiIS4towGV2DAw/l
        y1B0d1k0b/Y22Gh78kAc86T66fgBqEi3uMyrowmxiumqkvhIVOQ09S72cOtRNcX/
        ywPkJ0Kbd5gSx2uq7TK6BmvTlcOoNy7n/Y0nkJsTbLg630fSwVc4kJruU5Y1Ry/D
        sEyNDry9x9xcMm/eCU8jIxYZ7AUd4UU7t+N4OAKqzZgNSs7IKIM7MkEkDVtMj0QS
        dU9BOsTRgucAuTwKbQKBwGdE6x20Yyk0GyiSZkCzC5RPboL/C5FXsaePjeWwh7Ow
        jYq0FBhjBcndYzZUZRZniSMt/rMxIQqmIJEWJbvRwQA79c/DQYFbGFILwXcQhWLY
        j6Gw9r53UlI2OWKS6drVd3pagijC7x8Yw+ELe+HRk6ID3llcQfZSVgapMW0NL+pV
        9/+8Z0GgTzFvZqbejKC240VF92M8xO+QWKDz3cmYKN10F7c+dp+KO3e5M0t498DV
        VgRicZKml/zU1bT0PYY0SQ==
        -----END PRIVATE KEY-----
        """

    /// A 4096-bit RSA private key, PKCS #8 PEM.
    public static let rsa4096PrivateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIIJQAIBADANBgkqhkiG9w0BAQEFAASCCSowggkmAgEAAoICAQCZPVBBREs6Nvtv
        UR7aDrHv7GgtmADsE+HjXwFYgnGlkDuj6QHBnzVaVCq3HT0OYXsGG49GUzwOjS6R
        GMM+s8S8FJSFGB2rDSrnZWzsbdkRGB1XzZGqNbUkLzLVaJC7r2hEnPGxvILX0K49
        0jiSY8KNmjMTh3FK1btin3BVLMcSE95JLIoD8jWKrvTDUux0lsZL5hbM5sb4+voD
        avn2XjWygZBpLFzBw7jBO4zySOvs7CexiTSrK2lw+reUZm8DA7yNQwcblrYUigRE
        Mt43yFvReI9v7NwnZCwepRXZuNYCgYbBYkksNWaXEvvgnWDnkXzeQ8Je1dg8FZeg
        i7cRO5NRcX+6PVzI23JSIx6zugcc8X/3jEbPkGIC7F1XiY7df2k003vHq62ZWaEd
        vT31nilORgx7cxX3o82RphfLarWzzkJjUZ/y+cT1kzsFiQGpLm71ljxf4C9CxV7m
        +91vUv2PuFp90yPLd3On6ijNke3bP++ZDY47vRwjNsm2blce3W6JL+g4RuK8i8M/
        81Qc3fGpnF/1534/IMubM0vCtCYzOvDexVIXquep1UgTpOD/QZSANZT8gTzR/D8K
        gA/RG77hrhHk4IogLGcjm9h2v2M4QeSY/piG4ot94AYeFUTBjc6FvNY0m/ty//Bc
        Tb9jHWP7++D5hDuHGXWtqg2JAMmGNQIDAQABAoIB/39/hEbJi83j8U+tLv4/O81j
        5UoKLro90LRdV8FMx0H5v6WhONTgooOFhATXTvWoJbPvOkZI+q8gyJ3w/IIvEIFs
        niYe6pBnZEsjGH2e5/xRFBj58TitdwmkO6dUWRfP2fE8o9w9/J+UAWVug6NJXZZz
        tguJpbmeG0rzXYOAviFMZqZ7aFngLKw25W+ejx5yVIrR5iaV3PdL2rj9SPyzZfof
        0weu4X5WWmJsKdls0t9NnbkZb7j7Zb+a2yOeFr9rXHYsTr2lp9lu/B3CNSI0kjC3
        HqEBcitULWFR+dws7eMn4fcEz9z4kWMhaHB6gSYq5roHprFBO6jCTmZF2Qt9hhPz
        o0MXQu9HLxvvvCkyXpT2JKyKjEwYaTYObuAjpaQUmqYbY5TF9VBL5OfrugoZ+vpz
        SB+nRSHMINyceY7GMUI7vs8eC9PZStWiYRLsjoki/cdBa09BER7nw22cYeVrftnC
        OWcT3crxKpLs/Fv8BJAc0q0nnpM7Ag7XiacaJaApLWFSlHncvULqvxbFiekuhJXG
        FRRgvVKp5vViOfo4WTrLb0VF50MrkMcRrJKE+l8Cs8hkDyx6xcWCldoPvkUWjXOu
        drce1ZiRyFXPmzL5F0MqPCBRPMw4zG9+uHzsF9SGAu6EEV3ZpFGnSGsS6ED4Jv8l
        y0jfFW7JAbsh4i7rdh0CggEBAMuqvW/GwGC/XmwTsI/EQ0B7B7TC5HFTg7/xAQEp
        f16DLAZiLipZDGaLH6YHqmOV9aEqi7igKXF1ula7kjKB8x4sLGRsEyphWrQvTtfz
        ePntRMII4yPJ4BzyhY2DlSN1eaZ6aUQ/xcmWeu5afvhvU7dyNjAi7iFuzZl9TN61
        3Z1XQA2yzwa2jvuIc8XbvNlatnWhXDwce/GeK1+YaElFa2GySS3htfNbkOAZmV00
        zfDURWgEASRMtWNgSqlDjQbZXws8x253vWoBqLgKjUUrKZEvlBeeO0fBjXpLiRxn
        7aXyHdV4NYVQwywbjKtRtvW7eXoZMds4jsdx0ltBtM/p4s8CggEBAMCdcbYfBDmn
        q3Ugh3Qj3hnpu1alw+NQO06A2g0tJMQPOTk5OSjx5GForcmIEb7CH6NePe2q8iwF
        UjbrCz+2t8NP2owGROTg+xwVren8zziuQylMDCbpJDGTpElSCBg5o5X97u/rY6fn
        X1oU4BAG4rgZ4kpvO8KjX2jm3CwdYCEUO0/til8poCeoKU0qonUNA6CIsSdkhpsT
        cxbIjY++lmZEg+oo086W+iXqZtE6JU919i8buJyzt0y5DmKz1IJ7GJbqRZt6Fo5C
        vXtPs+YKGmbLgTvftzi4Upk4zLANM1CdXHP8yRpDHz9G5z5IBT4BfVbDp5yM0gSR
        DtJDoyZ717sCggEASI37zH0efZjPF2twQ9ckKi1qEmA3p5Ob5N4DgJl68X2DSobh
        cV6lx0YasTgb4DxE8/RHMC+GdA//oPRTYcDfjkkoS2Ig9cEW4gfUa6Ql3ctD6mfm
        GxLIzycqor5Ue/xWqRMEuzaIzIbaJl2AzBpE1Z5PZZicArcJcXuszc42M94oSHkB
        vZ99kmgK7lqYjUn+pCsmw5dWJD43r2eJB0k+tuAfp8O34QkmtF8KPqUYFIpaa3K5
        wWe+WresAV66N81qSYOOfHEVvlT2+RFxQEnfFgTAGiXZcnemYgHUx5TSmYKGVEzt
        rB+YV/c8hq+moSX3YaLmGvWsD6shyDbBJixpCwKCAQAY7ohAfaVLXTOpVouR8e6W
        xhVUsuI3MzRqBe2zlOtUYXATwx9t+FmKbkVId89sNK5ptBIqCF2OayXoK+Zp2dnR
        cy2jwE/8nE6EpR280tdzy8KvvsM36iegLy8tumuHzzYofRUHgx2EJ0PFYjxadrm0
        AM20us8uc30vE+rd3vOJdJf00Zd+l+G+IFswPNuIcSXOCsN7iNyPiCX2hgEk4ROQ
        qz+z+JLqA8rfS4cBgBhCP8+c62arCewpBy8ggYx5UzuslShrZpMy2Nqz8m4j0Zz3
        P1I8EMojkmBGqv57r0m8HpJQBSF2v8d0plXaTvI2w3SY3Xx9nBC3PJuBhfXBTnhv
        AoIBAHlB0p/NONuI0YBd+VipuMy5x1nY3HDsq2C4ywTqaMZfcGP9cnlw5ymS6Rp/
        mlSDvqLc/e45rROPLcZVT/0Cv15wCAdqpDHjuGvxQ0ivaseU/ubD6pbV/pIY2XsH
        bJGcRyP8fR3u2uFOKl6bOdilqF/B/ycBnhDSIO34f3bESj33dfqnQBZjPimXiww4
        V/1iOKPcVS8+7FQVH7axoyVENaoOidk2rQULzg0mUV2y41ex09Mi2oMbH9mfGwP+
        trRI9s1NGkKCo9HCCQPaOBC3Ane9VIzE97zSpTUgPHxraxEb5ETEY2wTT6rJVd7K
        eQBQew3k1tMaWJiJXfLl6/X31Ks=
        -----END PRIVATE KEY-----
        """
}
