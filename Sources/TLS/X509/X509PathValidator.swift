// Certification path validation (RFC 5280 §6, as the WebPKI applies it: rustls/webpki and
// pyca/cryptography's verifier are the models): a path is built from the leaf through the
// certificates the server sent to a trust anchor, depth first, trying every issuer whose
// subject matches and whose signature verifies, within a budget of signature checks. Each
// certificate below the anchor must be within its validity period and carry no critical
// extension we do not understand; each issuer must be a CA (basicConstraints), allowed to sign
// certificates (keyUsage), within its path length, and its name constraints must allow the
// names below it; the leaf must be for server authentication and name the host.

import CryptoPrimitives

/// Validates a server's certificate chain against trust anchors at a time, as the TLS client
/// does (RFC 5280 §6 as the WebPKI applies it; docs/tls.md lists the policy).
public struct X509PathValidator: Sendable {
    /// The trusted certificates (self-signed roots, or any certificate the caller trusts).
    public let anchors: [X509Certificate]
    /// The validation time, seconds since 1970.
    public let time: Int64

    /// A validator for `anchors` at `time`.
    public init(anchors: [X509Certificate], time: Int64) {
        self.anchors = anchors
        self.time = time
    }
    /// The longest path, leaf and anchor included: eight intermediates, as pyca/cryptography's
    /// verifier allows (the WebPKI rarely goes past two).
    static let maximumDepth = 10
    /// The most signature checks one validation may make (a peer cannot make path building
    /// exponential with many look-alike intermediates).
    static let signatureBudget = 64

    /// The path from `leaf` to an anchor (leaf first, anchor last), or the most telling reason
    /// none exists. `identity` nil skips the host check.
    public func validate(leaf: X509Certificate, intermediates: [X509Certificate], identity: ServerIdentity?) throws(X509ValidationError) -> [X509Certificate] {
        try checkCommon(leaf)
        try checkLeaf(leaf, identity: identity)
        var search = Search(intermediates: intermediates, budget: Self.signatureBudget)
        if let path = extend([leaf], &search) { return path }
        throw search.firstError ?? .unknownIssuer
    }

    private struct Search {
        let intermediates: [X509Certificate]
        var budget: Int
        var firstError: X509ValidationError?

        mutating func note(_ error: X509ValidationError) {
            if firstError == nil || firstError == .unknownIssuer { firstError = error }
        }
    }

    /// Depth-first: anchors first, then the intermediates, each tried once per path.
    private func extend(_ path: [X509Certificate], _ search: inout Search) -> [X509Certificate]? {
        guard let current = path.last, path.count < Self.maximumDepth else {
            search.note(.unknownIssuer)
            return nil
        }
        for anchor in anchors where anchor.subject == current.issuer {
            guard isSigned(current, by: anchor, &search) else { continue }
            do throws(X509ValidationError) {
                // An anchor is checked as OpenSSL and pyca/cryptography check theirs: valid now,
                // no critical extension we do not understand, and (version 3) a CA allowed to
                // sign certificates; a version 1 root has no extensions to check.
                try checkValidity(anchor)
                guard anchor.extensions.unknownCritical.isEmpty else { throw .unknownCriticalExtension }
                if anchor.version == 3 { try checkIssuer(anchor) }
                try checkConstraints(of: anchor, over: path)
                return path + [anchor]
            } catch {
                search.note(error)
            }
        }
        for candidate in search.intermediates where candidate.subject == current.issuer && !path.contains(candidate) {
            guard isSigned(current, by: candidate, &search) else { continue }
            do throws(X509ValidationError) {
                try checkCommon(candidate)
                try checkIssuer(candidate)
                try checkConstraints(of: candidate, over: path)
            } catch {
                search.note(error)
                continue
            }
            if let found = extend(path + [candidate], &search) { return found }
        }
        search.note(.unknownIssuer)
        return nil
    }

    private func isSigned(_ certificate: X509Certificate, by issuer: X509Certificate, _ search: inout Search) -> Bool {
        guard search.budget > 0 else {
            search.note(.unknownIssuer)
            return false
        }
        search.budget -= 1
        do throws(X509ValidationError) {
            let key = try X509PublicKey(subjectPublicKeyInfo: issuer.subjectPublicKeyInfo)
            guard try key.verifiesCertificateSignature(certificate.signature, over: certificate.tbsCertificate,
                                                       algorithm: certificate.signatureAlgorithm) else {
                search.note(.badSignature)
                return false
            }
            return true
        } catch {
            search.note(error)
            return false
        }
    }

    /// Every certificate below the anchor: a positive serial number (§4.1.2.2), validity, no
    /// critical extension we do not understand (§4.2), and no name constraints unless it is a
    /// CA (§4.2.1.10: "MUST be used only in a CA certificate").
    private func checkCommon(_ certificate: X509Certificate) throws(X509ValidationError) {
        guard certificate.serialNumber.first.map({ $0 & 0x80 == 0 }) ?? false else { throw .malformed("a negative serial number") }
        guard certificate.extensions.unknownCritical.isEmpty else { throw .unknownCriticalExtension }
        try checkValidity(certificate)
        guard certificate.extensions.nameConstraints == nil || certificate.extensions.isCA else { throw .nameConstraints }
    }

    /// §4.1.2.5: notBefore ≤ time ≤ notAfter, inclusive at both ends.
    private func checkValidity(_ certificate: X509Certificate) throws(X509ValidationError) {
        guard time >= certificate.notBefore else { throw .notYetValid }
        guard time <= certificate.notAfter else { throw .expired }
    }

    /// The end entity: not a CA (a CA certificate used as a server's is refused), for server
    /// authentication when it says what it is for (§4.2.1.12), its key of a kind we verify
    /// with, and naming the host (RFC 6125).
    private func checkLeaf(_ leaf: X509Certificate, identity: ServerIdentity?) throws(X509ValidationError) {
        guard !leaf.extensions.isCA else { throw .notCA }
        // §4.2.1.3: keyCertSign only with cA; a leaf that claims it is refused.
        if let usage = leaf.extensions.keyUsage, usage.count > 5, usage[5] { throw .keyUsage }
        // RFC 8446 §4.4.2.2 (and RFC 5246 §7.4.2 for ECDHE): the key signs the handshake, so a
        // keyUsage that is present must include digitalSignature (bit 0).
        if let usage = leaf.extensions.keyUsage, usage.first != true { throw .keyUsage }
        if let purposes = leaf.extensions.extendedKeyUsage, !purposes.contains(.serverAuth) { throw .extendedKeyUsage }
        _ = try X509PublicKey(subjectPublicKeyInfo: leaf.subjectPublicKeyInfo)
        if let identity, !identity.isNamed(by: leaf) { throw .hostnameMismatch }
    }

    /// An intermediate: a version 3 CA (§4.2.1.9) allowed to sign certificates (§4.2.1.3,
    /// keyCertSign is bit 5) and, when it restricts its purposes, allowed server authentication.
    private func checkIssuer(_ issuer: X509Certificate) throws(X509ValidationError) {
        guard issuer.version == 3, issuer.extensions.isCA else { throw .notCA }
        if let usage = issuer.extensions.keyUsage, !(usage.count > 5 && usage[5]) { throw .keyUsage }
        if let purposes = issuer.extensions.extendedKeyUsage, !purposes.contains(.serverAuth),
           !purposes.contains(.anyExtendedKeyUsage) { throw .extendedKeyUsage }
    }

    /// A CA's constraints over the certificates below it: the path length (§4.2.1.9: the
    /// non-self-issued intermediates below it) and its name constraints (§4.2.1.10).
    private func checkConstraints(of issuer: X509Certificate, over path: [X509Certificate]) throws(X509ValidationError) {
        if let limit = issuer.extensions.pathLengthConstraint {
            let intermediatesBelow = path.dropFirst().filter { !$0.isSelfIssued }.count
            guard intermediatesBelow <= limit else { throw .pathLengthExceeded }
        }
        if let constraints = issuer.extensions.nameConstraints {
            for certificate in path where !(certificate.isSelfIssued && certificate != path.first) {
                guard constraints.allows(certificate.extensions.subjectAlternativeNames) else { throw .nameConstraints }
            }
        }
    }
}
