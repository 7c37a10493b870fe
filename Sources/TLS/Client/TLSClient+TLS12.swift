// The TLS 1.2 handshake this client accepts (RFC 5246 §7.3): ECDHE key exchange only
// (RFC 8422, RFC 4492's successor), AEAD suites only (RFC 5289, RFC 7905), the extended
// master secret required (RFC 7627 §5.2), and no renegotiation (RFC 5746).

import CryptoPrimitives

extension TLSClient {
    /// §7.4.1.3: the suite, the extensions that may answer ours.
    mutating func receiveServerHello12(_ serverHello: ServerHello, _ message: [UInt8]) throws(TLSError) {
        guard let hello else { throw .violation(.internalError, "no ClientHello") }
        let suite = serverHello.cipherSuite
        guard TLSCipherSuite.tls12.contains(suite), hello.cipherSuites.contains(suite), let hash = TLSHash(suite: suite) else {
            throw .violation(.illegalParameter, "the server chose suite \(suite)")
        }
        let extensions = serverHello.extensions
        try extensions.requireOnly([.extendedMasterSecret, .renegotiationInfo, .applicationLayerProtocolNegotiation, .ecPointFormats,
                                    .serverName], in: "ServerHello")
        // RFC 7627 §5.2: without the extended master secret the handshake is refused.
        guard let ems = extensions[.extendedMasterSecret], ems.isEmpty else {
            throw .violation(.handshakeFailure, "the server does not use the extended master secret")
        }
        // RFC 5746 §3.4: renegotiated_connection must be empty on a first handshake.
        if let info = extensions[.renegotiationInfo], info != [0] {
            throw .violation(.handshakeFailure, "a non-empty renegotiation_info")
        }
        if let formats = extensions[.ecPointFormats] {  // RFC 8422 §5.2: uncompressed must be among them
            var reader = TLSReader(formats)
            guard try reader.readVector(lengthBytes: 1, "ec_point_formats", allowed: 1...255).contains(0) else {
                throw .violation(.illegalParameter, "no uncompressed point format")
            }
            try reader.finish("ec_point_formats")
        }
        applicationProtocol = try Self.selectedProtocol(extensions, offered: configuration.applicationProtocols)
        cipherSuite = suite
        serverRandom = serverHello.random
        transcript.choose(hash)
        transcript.append(message)
        keyShares = []
        state = .waitCertificate12
    }

    /// Certificate, ServerKeyExchange, CertificateRequest and ServerHelloDone (§7.4.2–§7.4.5).
    mutating func receiveHandshake12(_ type: TLSHandshakeType, _ message: [UInt8], _ body: [UInt8], _ output: inout Output) throws(TLSError) {
        switch (state, type) {
        case (.waitCertificate12, .certificate):
            var reader = TLSReader(body)
            var list = try reader.readNested(lengthBytes: 3, "certificate_list")
            var certificates: [[UInt8]] = []
            while !list.isAtEnd { certificates.append(try list.readVector(lengthBytes: 3, "ASN.1Cert", allowed: 1...0xFF_FFFF)) }
            try reader.finish("Certificate")
            try authenticate(certificates)
            try checkKeyMatchesSuite()
            transcript.append(message)
            state = .waitServerKeyExchange12
        case (.waitServerKeyExchange12, .serverKeyExchange):
            try receiveServerKeyExchange(body)
            transcript.append(message)
            state = .waitServerHelloDone12
        case (.waitServerHelloDone12, .certificateRequest):
            guard certificateRequestContext == nil else { throw .unexpected("a second CertificateRequest") }
            certificateRequestContext = []
            transcript.append(message)
        case (.waitServerHelloDone12, .serverHelloDone):
            guard body.isEmpty else { throw .decode("a ServerHelloDone with a body") }
            transcript.append(message)
            try sendClientFlight12(&output)
        case (.waitFinished12, .finished):
            try receiveFinished12(message, body, &output)
        default:
            throw .unexpected("handshake message \(type.rawValue) in state \(state)")
        }
    }

    /// An ECDSA suite needs an EC leaf, an RSA suite an RSA one (RFC 8422 §5.3, RFC 5246 §7.4.2).
    private func checkKeyMatchesSuite() throws(TLSError) {
        let ecdsaSuite = [TLSCipherSuite.ecdheECDSAWithAES128GCMSHA256, .ecdheECDSAWithAES256GCMSHA384,
                          .ecdheECDSAWithChaCha20Poly1305SHA256].contains(cipherSuite)
        switch (leafKey, ecdsaSuite) {
        case (.rsa?, false), (.p256?, true), (.p384?, true): return
        default: throw .violation(.unsupportedCertificate, "the certificate's key does not fit suite \(cipherSuite.map(String.init(describing:)) ?? "")")
        }
    }

    /// RFC 8422 §5.4: named-curve ECDHE parameters signed over client_random ‖ server_random ‖ params.
    private mutating func receiveServerKeyExchange(_ body: [UInt8]) throws(TLSError) {
        var reader = TLSReader(body)
        guard try reader.readUInt8("curve type") == 3 else { throw .violation(.illegalParameter, "ECDHE parameters that are not a named curve") }
        let group = TLSNamedGroup(rawValue: try reader.readUInt16("named curve"))
        let point = try reader.readVector(lengthBytes: 1, "ECDHE public", allowed: 1...255)
        let parameters = Array(body[0..<reader.position])
        let scheme = TLSSignatureScheme(rawValue: try reader.readUInt16("signature algorithm"))
        let signature = try reader.readVector(lengthBytes: 2, "signature", allowed: 1...0xFFFF)
        try reader.finish("ServerKeyExchange")
        guard let hello, hello.groups.contains(group) else { throw .violation(.illegalParameter, "ECDHE on \(group), which was not offered") }
        guard TLSSignatureScheme.offered.contains(scheme) else { throw .violation(.illegalParameter, "ServerKeyExchange signed with \(scheme)") }
        let signed = hello.random + serverRandom + parameters
        guard let leafKey, leafKey.verifiesHandshakeSignature(signature, over: signed, scheme: scheme, tls13: false) else {
            throw .violation(.decryptError, "the ServerKeyExchange signature does not verify")
        }
        serverKeyExchange12 = (group, point)
    }

    /// [Certificate], ClientKeyExchange, ChangeCipherSpec, Finished (§7.4.6–§7.4.9).
    private mutating func sendClientFlight12(_ output: inout Output) throws(TLSError) {
        guard let (group, serverPublic) = serverKeyExchange12, let hash = transcript.hash, let hello, let suite = cipherSuite else {
            throw .unexpected("ServerHelloDone without ServerKeyExchange")
        }
        guard let share = try KeyShare(group: group, random: &random) else { throw .violation(.internalError, "no key for \(group)") }
        let premaster = try share.sharedSecret(with: serverPublic)
        var flight: [UInt8] = []
        if certificateRequestContext != nil {  // §7.4.6: no certificate to give: an empty list
            let certificate = TLSWriter.handshakeMessage(.certificate) { $0.writeVector(lengthBytes: 3) { _ in } }
            transcript.append(certificate)
            flight += certificate
        }
        let keyExchange = TLSWriter.handshakeMessage(.clientKeyExchange) { body in
            body.writeVector(lengthBytes: 1) { $0.writeBytes(share.publicBytes) }
        }
        transcript.append(keyExchange)
        flight += keyExchange
        // RFC 7627 §4: master_secret = PRF(pre_master_secret, "extended master secret", session_hash).
        let master = hash.prf(premaster, label: "extended master secret", seed: transcript.currentHash, length: 48)
        masterSecret12 = master
        // RFC 5246 §6.3: the key block, client keys first.
        let lengths = RecordCipher.keyAndIVLengths(suite, tls13: false)
        var block = hash.prf(master, label: "key expansion", seed: serverRandom + hello.random, length: 2 * (lengths.key + lengths.iv))
            .secret.unsafeExposedBytes
        defer { SecretBytes.wipe(&block) }
        func slice(_ start: Int, _ count: Int) -> SymmetricKey { SymmetricKey(data: block[start..<(start + count)]) }
        let clientWriter = try RecordCipher(suite: suite, key: slice(0, lengths.key), iv: slice(2 * lengths.key, lengths.iv), isTLS13: false)
        pendingServerCipher12 = try RecordCipher(suite: suite, key: slice(lengths.key, lengths.key),
                                                 iv: slice(2 * lengths.key + lengths.iv, lengths.iv), isTLS13: false)
        let verifyData = hash.prf(master, label: "client finished", seed: transcript.currentHash, length: 12).secret.unsafeExposedBytes
        let finished = TLSWriter.handshakeMessage(.finished) { $0.writeBytes(verifyData) }
        transcript.append(finished)
        output.bytesToSend += Self.plaintextRecords(.handshake, flight) + Self.plaintextRecords(.changeCipherSpec, [1])
        output.bytesToSend += try clientWriter.seal(.handshake, finished)
        writeCipher = clientWriter
        state = .waitChangeCipherSpec12
    }

    /// The server's ChangeCipherSpec: its keys from now on (§7.1), with no handshake message
    /// left half-read across the change.
    mutating func activateServerKeys12() throws(TLSError) {
        guard reassembler.isEmpty, let cipher = pendingServerCipher12 else { throw .unexpected("a ChangeCipherSpec mid-message") }
        readCipher = cipher
        pendingServerCipher12 = nil
        state = .waitFinished12
    }

    /// §7.4.9: verify_data = PRF(master_secret, "server finished", Hash(handshake_messages))[0..11].
    private mutating func receiveFinished12(_ message: [UInt8], _ body: [UInt8], _ output: inout Output) throws(TLSError) {
        guard let hash = transcript.hash, let master = masterSecret12 else { throw .violation(.internalError, "no master secret") }
        let expected = hash.prf(master, label: "server finished", seed: transcript.currentHash, length: 12).secret.unsafeExposedBytes
        guard ConstantTimeComparison.isEqual(expected, body) else { throw .violation(.decryptError, "the server's Finished does not verify") }
        guard reassembler.isEmpty else { throw .unexpected("data after the server's Finished in its record") }
        transcript.append(message)
        state = .connected
        masterSecret12 = nil  // no resumption, no renegotiation: nothing needs it any more
        recordsWithoutData = 0
        output.handshakeCompleted = true
    }
}
