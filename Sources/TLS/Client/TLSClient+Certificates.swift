// The server's certificates, judged by the configured trust (TLSTrust): a validated chain to an
// anchor that names the host (X509/X509PathValidator.swift), a pin on the leaf, or both. The leaf's
// key is kept to verify the handshake signature that proves the server holds it.

extension TLSClient {
    /// The most certificates a server may send (a chain is rarely longer than four).
    static let maximumCertificates = 10

    mutating func authenticate(_ certificates: [[UInt8]]) throws(TLSError) {
        guard let leafDER = certificates.first else { throw .decode("an empty server Certificate") }
        guard certificates.count <= Self.maximumCertificates else {
            throw .violation(.badCertificate, "\(certificates.count) certificates (at most \(Self.maximumCertificates))")
        }
        let trust = configuration.trust
        guard trust.anchors != nil || trust.pins != nil else { throw .violation(.internalError, "neither anchors nor pins are configured") }
        let leaf: X509Certificate
        do throws(X509ValidationError) {
            leaf = try X509Certificate(derRepresentation: leafDER)
            // Intermediates that do not parse cannot be on a path; they are left out, not fatal.
            var intermediates: [X509Certificate] = []
            for der in certificates.dropFirst() {
                do throws(X509ValidationError) { intermediates.append(try X509Certificate(derRepresentation: der)) } catch { continue }
            }
            if let anchors = trust.anchors {
                let validator = X509PathValidator(anchors: anchors.certificates, time: configuration.validationTime())
                _ = try validator.validate(leaf: leaf, intermediates: intermediates, identity: configuration.serverIdentity)
            }
            leafKey = try X509PublicKey(subjectPublicKeyInfo: leaf.subjectPublicKeyInfo)
            peerCertificates = [leaf] + intermediates
        } catch {
            throw TLSError(.certificate(error), alert: error.alert, error.description)
        }
        if let pins = trust.pins, !pins.accepts(leaf) {
            throw TLSError(.pinMismatch, alert: .badCertificate, "the server's key matches no pin")
        }
    }
}
