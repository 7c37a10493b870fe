// Our recorded X.509 server-path suites (Vectors/x509, written by Vectors/generate_x509.py with
// pyca/cryptography's verifier deciding each verdict): the chain, the anchors, the host and the
// time go to the TLS client's path validator, which must accept exactly the valid cases.

import TLS
import VectorFormats

enum OwnX509 {
    /// The checker for the path-validation suites, or nil for another algorithm.
    static func checker(for algorithm: String) -> ((OwnVectorFile.Case) throws(VectorFormatError) -> OwnSymmetric.Outcome)? {
        switch algorithm {
        case "X509-SERVER-PATH", "X509-SERVER-PATH-RSA-PSS":
            return { (c) throws(VectorFormatError) in try check(c) }
        case "X509-SERVER-PATH-PROFILE":
            return { (c) throws(VectorFormatError) in
                if let rule = profileRulesNotFollowed.first(where: { c.comment.contains($0) }) {
                    return .skipped("a CA/Browser Forum profile rule this validator does not apply: \(rule)")
                }
                return try check(c)
            }
        default:
            return nil
        }
    }

    /// The rules of pyca/cryptography's CA/B Forum profile (Vectors/x509/server-path-profile.json)
    /// that go beyond RFC 5280's requirements on a validator, which this one deliberately does
    /// not apply, so private CAs made with common tools keep working: key identifiers present
    /// and non-critical, basicConstraints critical, keyUsage on every CA, extKeyUsage and
    /// subjectAltName non-critical (and critical under an empty subject, RFC 5280 §4.2.1.6, a
    /// rule for the CA), GeneralizedTime only from 2050. Every other case of the file
    /// must get cryptography's verdict.
    static let profileRulesNotFollowed = [
        "leaf without authorityKeyIdentifier", "authorityKeyIdentifier critical", "authorityKeyIdentifier without keyIdentifier",
        "intermediate subjectKeyIdentifier critical", "basicConstraints not critical", "intermediate without keyUsage",
        "root without keyUsage", "leaf extKeyUsage critical", "leaf subjectAltName critical under a non-empty subject",
        "empty subject and a non-critical subjectAltName", "GeneralizedTime before 2050",
    ]

    private static func check(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> OwnSymmetric.Outcome {
        let leaf = try c.input("leaf")
        let intermediates = try list(c, "intermediates"), anchors = try list(c, "anchors")
        let host = try c.string("host"), time = try c.integer("time")
        guard let identity = ServerIdentity(host: host) else {
            return c.isValid ? .compare(nil, [1]) : .rejected(true)  // a host we cannot even name is refused
        }
        var verdict: String
        do throws(X509ValidationError) {
            // Anchors that do not parse are left out, as a trust store's would be.
            let parsedAnchors = anchors.compactMap { der -> X509Certificate? in
                do throws(X509ValidationError) { return try X509Certificate(derRepresentation: der) } catch { return nil }
            }
            let parsedIntermediates = intermediates.compactMap { der -> X509Certificate? in
                do throws(X509ValidationError) { return try X509Certificate(derRepresentation: der) } catch { return nil }
            }
            let validator = X509PathValidator(anchors: parsedAnchors, time: Int64(time))
            _ = try validator.validate(leaf: try X509Certificate(derRepresentation: leaf), intermediates: parsedIntermediates, identity: identity)
            verdict = "valid"
        } catch {
            verdict = "\(error)"
        }
        if c.isValid { return .compare(Array(verdict.utf8), Array("valid".utf8)) }
        return .rejected(verdict != "valid")
    }

    private static func list(_ c: OwnVectorFile.Case, _ name: String) throws(VectorFormatError) -> [[UInt8]] {
        guard let items = c.inputs[name]?.array else { throw .missingField(name) }
        var result: [[UInt8]] = []
        for item in items {
            guard let text = item.string else { throw .malformed("\(name) holds a non-string") }
            result.append(try HexText.bytes(text, field: name))
        }
        return result
    }
}
