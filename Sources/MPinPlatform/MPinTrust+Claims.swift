// The registered claims of a MIRACL Trust JWT (RFC 7519 §4.1; docs/protocols/mpin.md §7.3): a JWT is accepted
// only with a numeric `exp` in the future, an `nbf` (when present) in the past, the platform it
// came from as `iss` and this project as `aud` — a JWT the platform issued for another project,
// or one that never expires, is refused. Times are range-checked before any conversion, so an
// absurd number is a typed error, never a trap or an eternal token.

import FoundationEssentials
import ProtocolSupport

extension MPinTrust {
    /// The latest time a JWT may name: 9999-12-31T23:59:59Z, in Unix seconds.
    package static let latestNumericDate: Double = 253_402_300_799

    /// What a verified JWT must say about itself (RFC 7519 §4.1.1, §4.1.3–§4.1.5).
    public struct ExpectedClaims: Sendable, Equatable {
        /// The platform's base URL, compared with `iss` (a trailing `/` is ignored on both).
        public let issuer: String
        /// The project id, which `aud` must be or contain.
        public let audience: String

        /// Claims for a JWT from `issuer` for `audience`.
        public init(issuer: String, audience: String) {
            self.issuer = issuer
            self.audience = audience
        }
    }

    /// Checks `exp` (required), `nbf` (optional), `iss` and `aud` of `claims` at `now`.
    static func check(_ claims: [String: JSONText], expected: ExpectedClaims, now: Date) throws(ProtocolError) {
        let current = now.timeIntervalSince1970
        guard let expiry = try numericDate(claims["exp"], name: "exp") else {   // RFC 7519 §4.1.4, required here
            throw ProtocolError(.malformedInput, "the JWT has no exp: it would never expire")
        }
        guard current < expiry else { throw ProtocolError(.expired, "the JWT expired") }
        if let notBefore = try numericDate(claims["nbf"], name: "nbf"), current < notBefore {   // RFC 7519 §4.1.5
            throw ProtocolError(.expired, "the JWT is not valid yet (nbf)")
        }
        guard case .string(let issuer)? = claims["iss"], trimmed(issuer) == trimmed(expected.issuer) else {   // RFC 7519 §4.1.1
            throw ProtocolError(.invalidArgument, "the JWT was not issued by \(expected.issuer)")
        }
        let audiences: [String]   // RFC 7519 §4.1.3: one string or an array of them
        switch claims["aud"] {
        case .string(let one)?: audiences = [one]
        case .array(let many)?: audiences = many.compactMap { if case .string(let one) = $0 { one } else { nil } }
        default: audiences = []
        }
        guard audiences.contains(expected.audience) else {
            throw ProtocolError(.invalidArgument, "the JWT is not for project \(expected.audience)")
        }
    }

    /// A NumericDate (RFC 7519 §2): an integer or a finite decimal number of seconds between
    /// 1970 and 9999; nil when the claim is absent, a typed error for anything else.
    static func numericDate(_ value: JSONText?, name: String) throws(ProtocolError) -> Double? {
        let seconds: Double
        switch value {
        case nil:
            return nil
        case .integer(let integer)?:
            guard integer >= 0, Double(integer) <= latestNumericDate else { throw ProtocolError(.malformedInput, "the JWT's \(name) is out of range") }
            seconds = Double(integer)
        case .number(let text)?:
            guard let number = Double(text), number.isFinite, number >= 0, number <= latestNumericDate else {
                throw ProtocolError(.malformedInput, "the JWT's \(name) is out of range")
            }
            seconds = number
        default:
            throw ProtocolError(.malformedInput, "the JWT's \(name) is not a number")
        }
        return seconds
    }

    private static func trimmed(_ url: String) -> String { url.hasSuffix("/") ? String(url.dropLast()) : url }
}
