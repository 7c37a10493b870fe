// CryptoPrimitives re-exports the public vocabulary of CryptoCore (`SecretBytes`,
// `RandomSource`, `SystemRandomSource`, `SeededRandomSource`, `CryptoError`) so that a user
// imports one module. CryptoCore's arithmetic stays `package` and is not visible to users.
@_exported public import CryptoCore
