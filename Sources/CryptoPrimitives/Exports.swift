// CryptoPrimitives re-exports, declaration by declaration, the few CryptoCore types a user (and
// a protocol target) must name: the secret store, the random sources, the error, and the text
// encodings. Nothing else of CryptoCore — its integers, Montgomery arithmetic and constant-time
// vocabulary, all `package` — is reachable through this module: a target above layer 1 that
// needs them must import CryptoCore itself, and `.ci/run` refuses that outside the top layer.
@_exported public import struct CryptoCore.SecretBytes
@_exported public import protocol CryptoCore.RandomSource
@_exported public import struct CryptoCore.SystemRandomSource
@_exported public import struct CryptoCore.SeededRandomSource
@_exported public import enum CryptoCore.CryptoError
@_exported public import enum CryptoCore.Base64
@_exported public import enum CryptoCore.Hex
@_exported public import enum CryptoCore.Base32
@_exported public import enum CryptoCore.CRC16
