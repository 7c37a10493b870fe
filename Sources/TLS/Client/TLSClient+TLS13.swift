// The TLS 1.3 handshake (RFC 8446 §2, §4) and its post-handshake messages (§4.6): the server's
// flight from ServerHello to Finished, HelloRetryRequest, the client's Finished, KeyUpdate.

import CryptoPrimitives

extension TLSClient {
    /// §4.1.4: a HelloRetryRequest names a group to send a share for (and may carry a cookie);
    /// one is allowed, and it must change something.
    mutating func receiveHelloRetryRequest(_ retry: ServerHello, _ message: [UInt8], _ output: inout Output) throws(TLSError) {
        guard !receivedHelloRetry else { throw .unexpected("a second HelloRetryRequest") }
        receivedHelloRetry = true
        guard var hello, retry.sessionID == hello.sessionID else { throw .violation(.illegalParameter, "the session id was not echoed") }
        guard TLSCipherSuite.tls13.contains(retry.cipherSuite), hello.cipherSuites.contains(retry.cipherSuite),
              let hash = TLSHash(suite: retry.cipherSuite) else {
            throw .violation(.illegalParameter, "the HelloRetryRequest chose suite \(retry.cipherSuite)")
        }
        try retry.extensions.requireOnly([.supportedVersions, .keyShare, .cookie], in: "HelloRetryRequest")
        var changed = false
        if let data = retry.extensions[.keyShare] {
            var reader = TLSReader(data)
            let group = TLSNamedGroup(rawValue: try reader.readUInt16("selected group"))
            try reader.finish("HelloRetryRequest key_share")
            guard hello.groups.contains(group), !keyShares.contains(where: { $0.group == group }),
                  let share = try KeyShare(group: group, random: &random) else {
                throw .violation(.illegalParameter, "the HelloRetryRequest asked for \(group)")
            }
            keyShares = [share]
            hello.keyShares = [(group, share.publicBytes)]
            changed = true
        }
        if let data = retry.extensions[.cookie] {
            var reader = TLSReader(data)
            hello.cookie = try reader.readVector(lengthBytes: 2, "cookie", allowed: 1...0xFFFF)
            try reader.finish("cookie")
            changed = true
        }
        guard changed else { throw .violation(.illegalParameter, "a HelloRetryRequest that changes nothing") }
        retrySuite = retry.cipherSuite
        // §4.4.1: the transcript restarts from message_hash(ClientHello1) ‖ HelloRetryRequest.
        transcript.choose(hash)
        transcript.replaceWithMessageHash()
        transcript.append(message)
        self.hello = hello
        let secondHello = hello.encoded()
        transcript.append(secondHello)
        // §D.4: in compatibility mode the client's change_cipher_spec goes before its second flight.
        if !hello.sessionID.isEmpty && !sentChangeCipherSpec {
            output.bytesToSend += Self.plaintextRecords(.changeCipherSpec, [1])
            sentChangeCipherSpec = true
        }
        output.bytesToSend += Self.plaintextRecords(.handshake, secondHello)
    }

    /// §4.1.3: the ServerHello of a TLS 1.3 handshake, then the handshake keys (§7.1).
    mutating func receiveServerHello13(_ serverHello: ServerHello, _ message: [UInt8], _ output: inout Output) throws(TLSError) {
        guard let hello, serverHello.sessionID == hello.sessionID else { throw .violation(.illegalParameter, "the session id was not echoed") }
        let suite = serverHello.cipherSuite
        guard TLSCipherSuite.tls13.contains(suite), hello.cipherSuites.contains(suite), let hash = TLSHash(suite: suite),
              retrySuite == nil || retrySuite == suite else {
            throw .violation(.illegalParameter, "the server chose suite \(suite)")
        }
        try serverHello.extensions.requireOnly([.supportedVersions, .keyShare], in: "ServerHello")
        guard let data = serverHello.extensions[.keyShare] else { throw .violation(.missingExtension, "no key_share in the ServerHello") }
        var reader = TLSReader(data)
        let group = TLSNamedGroup(rawValue: try reader.readUInt16("key share group"))
        let peerShare = try reader.readVector(lengthBytes: 2, "key share", allowed: 1...0xFFFF)
        try reader.finish("ServerHello key_share")
        guard let share = keyShares.first(where: { $0.group == group }) else {
            throw .violation(.illegalParameter, "a key share for \(group), which was not offered")
        }
        cipherSuite = suite
        serverRandom = serverHello.random
        if transcript.hash == nil { transcript.choose(hash) }
        transcript.append(message)
        let shared = try share.sharedSecret(with: peerShare)
        keyShares = []
        // §7.1: Early Secret (no PSK) → Handshake Secret → the handshake traffic secrets.
        let zeros = SymmetricKey(data: [UInt8](repeating: 0, count: hash.byteCount))
        let early = hash.extract(salt: nil, inputKeyMaterial: zeros)
        let derived = try hash.deriveSecret(early, "derived", transcriptHash: hash.hash([UInt8]()))
        let handshake = hash.extract(salt: derived, inputKeyMaterial: shared)
        handshakeSecret = handshake
        clientHandshakeSecret = try hash.deriveSecret(handshake, "c hs traffic", transcriptHash: transcript.currentHash)
        let serverSecret = try hash.deriveSecret(handshake, "s hs traffic", transcriptHash: transcript.currentHash)
        serverHandshakeSecret = serverSecret
        // §5.1: handshake messages must not span a key change.
        guard reassembler.isEmpty else { throw .unexpected("data after the ServerHello in its record") }
        readCipher = try trafficCipher(serverSecret)
        framer.maximumFragment = RecordCipher.maximumCiphertextTLS13
        state = .waitEncryptedExtensions
    }

    /// The messages between ServerHello and the server's Finished (§4.3–§4.4).
    mutating func receiveHandshake13(_ type: TLSHandshakeType, _ message: [UInt8], _ body: [UInt8], _ output: inout Output) throws(TLSError) {
        switch (state, type) {
        case (.waitEncryptedExtensions, .encryptedExtensions):
            try receiveEncryptedExtensions(body)
            transcript.append(message)
            state = .waitCertificateOrRequest
        case (.waitCertificateOrRequest, .certificateRequest):
            var reader = TLSReader(body)
            certificateRequestContext = try reader.readVector(lengthBytes: 1, "certificate_request_context")
            _ = try TLSExtensions(&reader, "CertificateRequest")
            try reader.finish("CertificateRequest")
            transcript.append(message)
            state = .waitCertificate
        case (.waitCertificateOrRequest, .certificate), (.waitCertificate, .certificate):
            var reader = TLSReader(body)
            guard try reader.readVector(lengthBytes: 1, "certificate_request_context").isEmpty else {
                throw .violation(.illegalParameter, "a server Certificate with a request context")
            }
            var list = try reader.readNested(lengthBytes: 3, "certificate_list")
            var certificates: [[UInt8]] = []
            while !list.isAtEnd {
                certificates.append(try list.readVector(lengthBytes: 3, "cert_data", allowed: 1...0xFF_FFFF))
                _ = try list.readVector(lengthBytes: 2, "certificate entry extensions")
            }
            try reader.finish("Certificate")
            try authenticate(certificates)
            transcript.append(message)
            state = .waitCertificateVerify
        case (.waitCertificateVerify, .certificateVerify):
            try receiveCertificateVerify13(body)
            transcript.append(message)
            state = .waitFinished
        case (.waitFinished, .finished):
            try receiveFinished13(message, body, &output)
        default:
            throw .unexpected("handshake message \(type.rawValue) in state \(state)")
        }
    }

    /// §4.3.1: only what was offered, ALPN naming one of our protocols (RFC 7301 §3.2).
    private mutating func receiveEncryptedExtensions(_ body: [UInt8]) throws(TLSError) {
        var reader = TLSReader(body)
        let extensions = try TLSExtensions(&reader, "EncryptedExtensions")
        try reader.finish("EncryptedExtensions")
        try extensions.requireOnly([.serverName, .supportedGroups, .applicationLayerProtocolNegotiation], in: "EncryptedExtensions")
        if let data = extensions[.serverName], !data.isEmpty { throw .decode("a server_name acknowledgement with data") }
        applicationProtocol = try Self.selectedProtocol(extensions, offered: configuration.applicationProtocols)
    }

    /// RFC 7301 §3.1: one protocol, one the client offered.
    static func selectedProtocol(_ extensions: TLSExtensions, offered: [String]) throws(TLSError) -> String? {
        guard let data = extensions[.applicationLayerProtocolNegotiation] else { return nil }
        var reader = TLSReader(data)
        var list = try reader.readNested(lengthBytes: 2, "ALPN list")
        let name = String(decoding: try list.readVector(lengthBytes: 1, "ALPN name", allowed: 1...255), as: UTF8.self)
        try list.finish("ALPN list")
        try reader.finish("ALPN")
        guard offered.contains(name) else { throw .violation(.noApplicationProtocol, "the server selected ALPN \(name)") }
        return name
    }

    /// §4.4.3: the signature over 64 spaces, the context string, a zero byte and the transcript.
    private mutating func receiveCertificateVerify13(_ body: [UInt8]) throws(TLSError) {
        var reader = TLSReader(body)
        let scheme = TLSSignatureScheme(rawValue: try reader.readUInt16("signature scheme"))
        let signature = try reader.readVector(lengthBytes: 2, "signature", allowed: 1...0xFFFF)
        try reader.finish("CertificateVerify")
        guard TLSSignatureScheme.offered.contains(scheme), scheme.isAllowedInTLS13Handshake else {
            throw .violation(.illegalParameter, "CertificateVerify with scheme \(scheme)")
        }
        let signed = [UInt8](repeating: 0x20, count: 64) + Array("TLS 1.3, server CertificateVerify".utf8) + [0] + transcript.currentHash
        guard let leafKey, leafKey.verifiesHandshakeSignature(signature, over: signed, scheme: scheme, tls13: true) else {
            throw .violation(.decryptError, "the server's CertificateVerify does not verify")
        }
    }

    /// §4.4.4: the server's Finished, then the application secrets and the client's flight.
    private mutating func receiveFinished13(_ message: [UInt8], _ body: [UInt8], _ output: inout Output) throws(TLSError) {
        guard let hash = transcript.hash, let serverSecret = serverHandshakeSecret, let clientSecret = clientHandshakeSecret,
              let handshake = handshakeSecret else { throw .violation(.internalError, "no handshake secrets") }
        let expected = try finishedMAC(serverSecret, hash: hash)
        guard ConstantTimeComparison.isEqual(expected, body) else { throw .violation(.decryptError, "the server's Finished does not verify") }
        transcript.append(message)
        // §5.1: no handshake message may span the key change.
        guard reassembler.isEmpty else { throw .unexpected("data after the server's Finished in its record") }
        let derived = try hash.deriveSecret(handshake, "derived", transcriptHash: hash.hash([UInt8]()))
        let master = hash.extract(salt: derived, inputKeyMaterial: SymmetricKey(data: [UInt8](repeating: 0, count: hash.byteCount)))
        let clientApplication = try hash.deriveSecret(master, "c ap traffic", transcriptHash: transcript.currentHash)
        let serverApplication = try hash.deriveSecret(master, "s ap traffic", transcriptHash: transcript.currentHash)
        readCipher = try trafficCipher(serverApplication)
        if let hello, !hello.sessionID.isEmpty, !sentChangeCipherSpec {  // §D.4
            output.bytesToSend += Self.plaintextRecords(.changeCipherSpec, [1])
            sentChangeCipherSpec = true
        }
        let handshakeWriter = try trafficCipher(clientSecret)
        if let context = certificateRequestContext {
            // §4.4.2: no client certificate: an empty list in answer to the request.
            let certificate = TLSWriter.handshakeMessage(.certificate) { body in
                body.writeVector(lengthBytes: 1) { $0.writeBytes(context) }
                body.writeVector(lengthBytes: 3) { _ in }
            }
            transcript.append(certificate)
            output.bytesToSend += try handshakeWriter.seal(.handshake, certificate)
        }
        let clientVerifyData = try finishedMAC(clientSecret, hash: hash)
        let finished = TLSWriter.handshakeMessage(.finished) { $0.writeBytes(clientVerifyData) }
        transcript.append(finished)
        output.bytesToSend += try handshakeWriter.seal(.handshake, finished)
        writeCipher = try trafficCipher(clientApplication)
        clientApplicationSecret = clientApplication
        serverApplicationSecret = serverApplication
        handshakeSecret = nil
        clientHandshakeSecret = nil
        serverHandshakeSecret = nil
        state = .connected
        recordsWithoutData = 0
        output.handshakeCompleted = true
    }

    /// §4.6: NewSessionTicket (ignored: no resumption) and KeyUpdate; anything else is unexpected.
    mutating func receivePostHandshake13(_ type: TLSHandshakeType, _ body: [UInt8], _ output: inout Output) throws(TLSError) {
        switch type {
        case .newSessionTicket:
            return
        case .keyUpdate:
            guard body.count == 1, body[0] <= 1 else { throw .violation(.illegalParameter, "a KeyUpdate of \(body)") }
            guard reassembler.isEmpty else { throw .unexpected("data after a KeyUpdate in its record") }  // §5.1
            guard let hash = transcript.hash, let server = serverApplicationSecret else { throw .violation(.internalError, "no secrets") }
            // §7.2: application_traffic_secret_N+1 = HKDF-Expand-Label(secret_N, "traffic upd", "", Hash.length).
            let next = try hash.expandLabel(server, "traffic upd", context: [], length: hash.byteCount)
            serverApplicationSecret = next
            readCipher = try trafficCipher(next)
            if body[0] == 1, let writeCipher, let client = clientApplicationSecret {
                output.bytesToSend += try writeCipher.seal(.handshake, TLSWriter.handshakeMessage(.keyUpdate) { $0.writeUInt8(0) })
                let nextClient = try hash.expandLabel(client, "traffic upd", context: [], length: hash.byteCount)
                clientApplicationSecret = nextClient
                self.writeCipher = try trafficCipher(nextClient)
            }
        default:
            throw .unexpected("handshake message \(type.rawValue) after the handshake")
        }
    }

    /// verify_data = HMAC(finished_key, Transcript-Hash) with finished_key =
    /// HKDF-Expand-Label(BaseKey, "finished", "", Hash.length) (§4.4.4).
    private func finishedMAC(_ baseKey: SymmetricKey, hash: TLSHash) throws(TLSError) -> [UInt8] {
        let key = try hash.expandLabel(baseKey, "finished", context: [], length: hash.byteCount)
        return hash.hmac(key: key, transcript.currentHash).secret.unsafeExposedBytes
    }

    /// The record cipher of a traffic secret (§7.3: key and iv by HKDF-Expand-Label).
    func trafficCipher(_ secret: SymmetricKey) throws(TLSError) -> RecordCipher {
        guard let suite = cipherSuite, let hash = transcript.hash else { throw .violation(.internalError, "no suite") }
        let lengths = RecordCipher.keyAndIVLengths(suite, tls13: true)
        let key = try hash.expandLabel(secret, "key", context: [], length: lengths.key)
        let iv = try hash.expandLabel(secret, "iv", context: [], length: lengths.iv)
        return try RecordCipher(suite: suite, key: key, iv: iv, isTLS13: true)
    }
}
