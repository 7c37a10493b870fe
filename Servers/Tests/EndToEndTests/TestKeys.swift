// Pre-made RSA-2048 keys for the end-to-end tests ONLY — published here, so never a key for
// anything real. Generated once with `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048`.
// The stand-ins take them instead of generating their own: a debug build of the engine needs
// seconds of CPU per RSA key, and suites running in parallel on two cores starved each other's
// loopback servers into time-outs while generating them.

import CryptoPrimitives

/// Test-only keys (see the file comment).
enum TestKeys {
    /// The Salt Edge stand-in's provider key.
    static let saltEdgeProvider = key(providerPEM)
    /// The CM stand-in's certificate-list signing key.
    static let cmList = key(listPEM)

    private static func key(_ pem: String) -> RSA.Signing.PrivateKey {
        do { return try RSA.Signing.PrivateKey(pemRepresentation: pem) } catch {
            fatalError("the test key in TestKeys.swift does not parse: \(error)")  // a constant of this file, not external data
        }
    }

    private static let providerPEM = """
-----BEGIN PRIVATE KEY-----
MIIEvwIBADANBgkqhkiG9w0BAQEFAASCBKkwggSlAgEAAoIBAQC7l0xWKEezls3K
uFfm6bmeX5fgNebxwDrBbByGXb9RsjQA4A1ThaZ1seNRryKVuoWhK7BsktnWkP4O
OCvkFOIr8zvcyHhvQC+7EScNd2HWT4R28ycI5vNlMHSvo+0cVSCDmU8JFj5DwNhk
/6P6TPMmm4FbjFO6g61iHk37Y1SiBpQoaZ8VlFwov4cnTPut8aeX9HrY2R0i21xZ
Xu4+T5bFsxeUVQDYbK01xtav7+hSlX+1vSAC57Wp6a+PmVCxJBMNnT11muRoCGEP
1mx82xrZmgOnJ75tb5MVoSgmxlO43NoiLk8NYKa2hN8c8KvcUtieXmroAoD7Y8ve
3qmTrDiPAgMBAAECggEAFdi3QtVqvEcqF5tuXphbo05osUDgcMkSo/yuOcETNeAg
tEq44pWPCZKPnFoJbLyN3B5AFp+SOlh6beIsImItkNwWiE4vJcL+NrVMV1d5j8GE
9ha34LkyIVe0+dDdHU6V/HLPRIn68wheFde7xhD4xEdEl7UjpHYPVtJGrKnTF7yk
mcoUdac0lCIOnKNgwqUgm4u2Fg+LECyrP6wIYE0nL9cspQOGBPvl0Pww6VfFGfgQ
73L6Yx4LERg/Idd+LdNKfcbRy3LxxhrayawuvTwwq74IthUj4KXDFna9lnauC9Mv
TeW8kXznpslyqq965e0qrO+kYds4R9qsA5/XzCilEQKBgQDokuKaWpo8TP3tiD5h
zWHI87SyMPxpxlVNNwB+gLcq9QldB7M3fNOt9r+3jEZEKEZC0oiUTLTGQbwa1FZG
6Pal5JD0gxKA0xdIy1z1pH1u4qLyVp27NTwfvNfaw6CbXtRYS64CyyUN95c2HhSe
Efu4BA/M2gl2J+zr/MnYUwBoFwKBgQDOfH5pjc7QiFbsnP0t/ujehLWdxmLZ8ZGb
BkNJ4iYpkiEnXOWSpVBAkQ8V63rqCn7QaH2u05P8qZLQFfh/QYmILm0zZMAYDkvW
4Jx3v3sAWKL/VRsR3KfqY6X7OeHe88TCmpKBqRPbQf57lkiNYT3OQUFB1+rQ63K4
RZe0X5IGSQKBgQCfimtyESbuqK4kbKrGcppavHs/JYVxlgFcF5f6L5f3GuKSc77I
GJQpKTQ42Dw3cx1Hp57ThI8Z1WwRR4nr2NGh2VpqsSNXRfcaE48wXudA0q2O6kYH
byxQZT35rusUygeGjlvPRMWlgCu1jwr7qEBx6i9gik2lRRwsgluATufffwKBgQDB
Tpdh5hpZ62nFNetoJh6IQyFrxZBBjP/Na/2Oq6Mig+V53mQl95G8AJFo6f02IgE6
xrfy9ayze2UwXYE4UXiZ/yzIUmfrnWaukbSp/p7+YfymoVwoSrUAn62CFlw4x2nK
7b5+mHU4bP37YWQmx4R/FWQsaiEw2Vua27v8ZwRj0QKBgQCxMkfixs3J2AExB+7m
J+cVjRZ6mu5zllOdKQ9etLFPkF39SE3GnluzNoK+y7Rcy9WwkErWsB4SytG4SV2n
7wiwSk9LCbIsxpXYaCIbw3rtupkO40+ETvdLFSMhJzLXlxOw+PH3sfVoE8+5Yylw
ShV/Fv1eQtRe4DNfzaDpHle2Dg==
-----END PRIVATE KEY-----
"""

    private static let listPEM = """
-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCbSAd9mXgq1LFI
b/S3XxJ/g3sbeDLvHw/sdtbAFyfWFSFk2tt5g4yWDEkRXkomHBrjuyQvDxCJjsaS
LuedVWSqLyMJIsx6vGnkC8E7BeF9DAuz7nPGd0M+RHVZlkgR7tc9fW4TXWI6kewz
bsobV7u9r9sJT85h5aXDs36VPnmpdbhxNSt8xDUZep0QiaOewyO4+c77YkcvF+zk
cloMVr3O1E2EFQac38eYcf/hhI4KXB55pYPx0+b1KNcUvlfP1szLcMjYLGqMf8mC
aGVMQ5H/IWm7aLKGJH91WMms9n0HUACGm4DjnRZtcThLSEhB35/+sBgT5Cgb9Wd+
VTiNMi/9AgMBAAECggEACTlvAdCR7rrCKfibSSCziMdRkwZXFupkTUVFU5WXObn5
SQmmm7eArKc1LfwecS4ekM8HWBOlMAQUcA8A66aXe3P1Dlq2r/HXuS1+QJiEVnkr
4Xf1q7azqWlyroGQGB9Kl64G/HfXLn3dp16E+2PWVMSIwVWwKmj0fxrUwbPmO/aZ
GU1YdmOvP6lf3mDMUdbo3aKH2CSu16wKctSvPriHJAX6V8yBH7ijjJV63ahy22SL
EXoulVxkooheT2H5xiUc4Fcu4NBx8eR1TJUiEVs3zwIZxUq7UWyx0HIydV34V9fA
niEAmukLaIgScxZlLwHy7QQp4/df7aTcjAgvLqDMVwKBgQDLoYrkNLulC+Pk6i+Z
3R9NBSfiVHvWTq3AOPnN4uwQ+LCOVE2E9k4smf/FyIP/XE7WFCQgw7a/UqvsGXfU
hCMfdo/2wTZ+3Uz2C/7K/kKa3JCsEd17hjaOIiN0QOID7GzvDORJ++Ncc4yBhYXg
JxPlaxILRdpeAphX3H0lKsSdQwKBgQDDN0oohl8kxVu+tXWOF75hNwscnuMWmlOG
RWiQUlT+4s0F7BJGwEi60PZ/uXWoQi9yG0Wno/j3nZmQqOhtZBU8a5I3c/7TFI6k
W0J3yIsslHjdLXNe+CAkj9Lp8Hwfu5EpFvmMELQmLEv/D50mHRxI2n8pY6j7NPCu
phTBMMiJvwKBgQCn8uvgPpIJlZ33/yMVj2gymS8FIFMnNate4F9AbYnwkXzlVyi8
on1lkfqAAVrFMjgfn2sQzvsaH7CGwZaw4+8oExy4EzHEPvgr80bJ3B3JJmP4V5/K
Mq8qWYPObXk8bTKHk6VyU9t5NCBN73e0oeZqEP5H5+wsH43Q4Z0iG30giwKBgBBB
PVKMhcWZDV+e2m//eCG+JJW4gS4zoXrPsro5sMwcdHfmxUrQ3f14Qt41wh9Fi4/T
x4QC+ksb+1p5Rgk9ySrjxiQJ65EF6C61Tp6Mu1H19u5rx2yD+qEwvJ4wIRW/V4H1
YMgR5/45uAY/9ZTj3aQPVYFLxBlOui/Asn+3oSsfAoGAJiFypj9/BAlVM624/BDE
9HPA6lhI2umDNfeLo3zFmD9pcSIS8QKCnqTfQWobauRVzEvQ0HNkGShincRIS/zF
AJGlYofxORE31cUK4avPY7of6t5W+1LsI31nj5h6z/wZGONbAXXdJBzoLeKBF6n4
oZRgZItQl8+j5Rkhb4dV084=
-----END PRIVATE KEY-----
"""
}
