// The TLS client as a sans-I/O state machine (docs/design.md §1, "TLS of our own"): bytes from the
// peer go in through `receive`, bytes to send and application data come out. It speaks TLS 1.3
// (RFC 8446) and TLS 1.2 restricted to ECDHE with AEAD suites and the extended master secret
// (RFC 5246, 5289, 7627, 7905), picks by the server's answer, and never falls back, resumes,
// renegotiates, compresses or sends early data. The handshakes are in TLSClient+TLS13.swift
// and TLSClient+TLS12.swift; records and alerts are here.

public import CryptoPrimitives

/// A TLS client connection, without I/O.
public struct TLSClient {
    /// What one call produced.
    public struct Output: Sendable {
        /// Bytes to write to the peer, in order.
        public var bytesToSend: [UInt8] = []
        /// Application data that arrived.
        public var applicationData: [UInt8] = []
        /// Whether the handshake completed during this call.
        public var handshakeCompleted = false
        /// Whether the peer closed the connection cleanly (close_notify).
        public var peerClosed = false
    }

    /// Where the handshake is.
    enum State {
        case start, waitServerHello
        case waitEncryptedExtensions, waitCertificateOrRequest, waitCertificate, waitCertificateVerify, waitFinished
        case waitCertificate12, waitServerKeyExchange12, waitServerHelloDone12, waitChangeCipherSpec12, waitFinished12
        case connected, closed, failed
    }

    let configuration: TLSConfiguration
    var random: any RandomSource
    var state = State.start
    var framer = RecordFramer()
    var reassembler = HandshakeReassembler()
    var readCipher: RecordCipher?
    var writeCipher: RecordCipher?
    var transcript = TLSTranscript()

    // The ClientHello and what it committed to.
    var hello: ClientHelloParameters?
    var keyShares: [KeyShare] = []
    var sentChangeCipherSpec = false
    /// Whether the server answered with a HelloRetryRequest (RFC 8446 §4.1.4).
    public internal(set) var receivedHelloRetry = false
    var retrySuite: TLSCipherSuite?

    // What the server chose.
    /// The negotiated version, once the ServerHello is read.
    public internal(set) var version: TLSVersion?
    /// The negotiated suite.
    public internal(set) var cipherSuite: TLSCipherSuite?
    /// The ALPN protocol the server selected, if any.
    public internal(set) var applicationProtocol: String?
    /// The certificates the server sent, leaf first.
    public internal(set) var peerCertificates: [X509Certificate] = []
    var serverRandom: [UInt8] = []
    var leafKey: X509PublicKey?
    var certificateRequestContext: [UInt8]?

    // Secrets.
    var handshakeSecret: SymmetricKey?
    var clientHandshakeSecret: SymmetricKey?
    var serverHandshakeSecret: SymmetricKey?
    var clientApplicationSecret: SymmetricKey?
    var serverApplicationSecret: SymmetricKey?
    var masterSecret12: SymmetricKey?
    var serverKeyExchange12: (group: TLSNamedGroup, publicKey: [UInt8])?
    var pendingServerCipher12: RecordCipher?

    // Bounds on what the peer may send without application data (alert and message floods).
    var recordsWithoutData = 0
    static let maximumRecordsWithoutData = 32
    var warningAlerts = 0
    static let maximumWarningAlerts = 4
    var postHandshakeMessages = 0
    static let maximumPostHandshakeMessages = 32

    /// A connection for `configuration`, drawing its randomness from `random`.
    public init(configuration: TLSConfiguration, random: any RandomSource = SystemRandomSource()) {
        self.configuration = configuration
        self.random = random
    }

    /// Whether application data can be sent and received.
    public var isConnected: Bool { state == .connected }

    /// The ClientHello flight (RFC 8446 §4.1.2).
    public mutating func start() throws(TLSError) -> [UInt8] {
        guard state == .start else { throw TLSError(.invalidState, alert: nil, "start() called twice") }
        let versions = configuration.versions.filter { $0 == .tls13 || $0 == .tls12 }
        let suites = configuration.cipherSuites.filter {
            (versions.contains(.tls13) && TLSCipherSuite.tls13.contains($0)) || (versions.contains(.tls12) && TLSCipherSuite.tls12.contains($0))
        }
        guard !versions.isEmpty, !suites.isEmpty else { throw TLSError(.invalidState, alert: nil, "no version or suite to offer") }
        for group in configuration.keyShareGroups where versions.contains(.tls13) && configuration.groups.contains(group) {
            if let share = try KeyShare(group: group, random: &random) { keyShares.append(share) }
        }
        // RFC 8446 §D.4: a 32-byte legacy_session_id puts the server in middlebox-compatibility mode.
        let parameters = ClientHelloParameters(
            random: try randomBytes(32), sessionID: versions.contains(.tls13) ? try randomBytes(32) : [],
            cipherSuites: suites, versions: versions, groups: configuration.groups,
            keyShares: keyShares.map { ($0.group, $0.publicBytes) }, serverName: configuration.serverIdentity.serverName,
            applicationProtocols: configuration.applicationProtocols, cookie: nil)
        hello = parameters
        let message = parameters.encoded()
        transcript.append(message)
        state = .waitServerHello
        return Self.plaintextRecords(.handshake, message)
    }

    /// Takes bytes from the peer and runs the connection as far as they go. On a thrown error
    /// the connection is dead; ``alertRecord(for:)`` gives the bytes that tell the peer.
    public mutating func receive(_ bytes: some Collection<UInt8>) throws(TLSError) -> Output {
        guard state != .start, state != .closed, state != .failed else {
            throw TLSError(.invalidState, alert: nil, "receive() in state \(state)")
        }
        var output = Output()
        framer.append(bytes)
        do throws(TLSError) {
            while state != .closed, let record = try framer.next() {
                try process(record, &output)
            }
        } catch {
            state = .failed
            throw error
        }
        return output
    }

    /// Application data as protected records (at most 2¹⁴ bytes each, RFC 8446 §5.1).
    public mutating func seal(_ data: [UInt8]) throws(TLSError) -> [UInt8] {
        try data.withUnsafeBytes { bytes in Result { () throws(TLSError) in try seal(bytes) } }.get()
    }

    /// Application data read in place as protected records; every plaintext copy made on the
    /// way is wiped, so a request holding a credential leaves nothing behind but the records.
    public mutating func seal(_ data: UnsafeRawBufferPointer) throws(TLSError) -> [UInt8] {
        guard state == .connected, let writeCipher else { throw TLSError(.invalidState, alert: nil, "not connected") }
        var records: [UInt8] = []
        var offset = 0
        repeat {
            let end = min(data.count, offset + (1 << 14))
            var fragment = Array(data[offset..<end])
            defer { SecretBytes.wipe(&fragment) }
            records += try writeCipher.seal(.applicationData, fragment)
            offset = end
        } while offset < data.count
        return records
    }

    /// A close_notify alert (RFC 8446 §6.1); the connection sends nothing more.
    public mutating func close() -> [UInt8] {
        defer { state = .closed }
        return alertRecord(.closeNotify, fatal: false)
    }

    /// The record telling the peer why the connection failed, protected when keys are set; no
    /// bytes for an error the peer caused by its own alert or that carries no alert.
    public func alertRecord(for error: TLSError) -> [UInt8] {
        guard error.kind != .peerAlert, let alert = error.alert else { return [] }
        // RFC 5246 §7.2.2: no_renegotiation is a warning; the connection closes all the same.
        return alertRecord(alert, fatal: alert != .noRenegotiation)
    }

    func alertRecord(_ alert: TLSAlert, fatal: Bool) -> [UInt8] {
        let body: [UInt8] = [fatal ? 2 : 1, alert.rawValue]
        guard let writeCipher else { return Self.plaintextRecords(.alert, body) }
        do throws(TLSError) { return try writeCipher.seal(.alert, body) } catch { return [] }  // cannot protect it: send nothing
    }

    static func plaintextRecords(_ type: TLSContentType, _ content: [UInt8]) -> [UInt8] {
        var records: [UInt8] = []
        var offset = 0
        repeat {
            let end = min(content.count, offset + (1 << 14))
            let length = end - offset
            records += [type.rawValue, 0x03, 0x03, UInt8(length >> 8), UInt8(truncatingIfNeeded: length)] + content[offset..<end]
            offset = end
        } while offset < content.count
        return records
    }

    mutating func randomBytes(_ count: Int) throws(TLSError) -> [UInt8] {
        do throws(CryptoError) { return try random.bytes(count: count) } catch {
            throw .violation(.internalError, "the random source failed")
        }
    }

    // MARK: Records

    private mutating func process(_ record: TLSRecord, _ output: inout Output) throws(TLSError) {
        if record.type == .changeCipherSpec { return try receiveChangeCipherSpec(record.fragment) }
        var type = record.type, content = record.fragment
        if let readCipher {
            // RFC 8446 §5.2: once protected, every TLS 1.3 record is application_data outside.
            if version == .tls13 && type != .applicationData { throw .unexpected("a plaintext record after encryption began") }
            (type, content) = try readCipher.open(header: record.header, fragment: record.fragment)
        } else if content.count > 1 << 14 {
            throw .violation(.recordOverflow, "a plaintext record over 2^14 bytes")
        }
        recordsWithoutData += 1
        guard recordsWithoutData <= Self.maximumRecordsWithoutData || type == .handshake && state != .connected else {
            throw .unexpected("more than \(Self.maximumRecordsWithoutData) records without application data")
        }
        switch type {
        case .alert:
            try receiveAlert(content, &output)
        case .handshake:
            // RFC 8446 §5.1: handshake records are never empty.
            guard !content.isEmpty else { throw .unexpected("an empty handshake record") }
            reassembler.append(content)
            while state != .failed, let message = try reassembler.next() {
                try receiveHandshake(message, &output)
            }
        case .applicationData:
            guard state == .connected else { throw .unexpected("application data before the handshake finished") }
            if !content.isEmpty {
                recordsWithoutData = 0
                postHandshakeMessages = 0
                warningAlerts = 0
            }
            output.applicationData += content
        default:
            throw .unexpected("a record of content type \(type.rawValue)")
        }
    }

    /// RFC 8446 §5: during the handshake a TLS 1.3 peer may send one change_cipher_spec of the
    /// single byte 1, dropped unread; TLS 1.2 sends it once, before its Finished.
    private mutating func receiveChangeCipherSpec(_ content: [UInt8]) throws(TLSError) {
        guard content == [1] else { throw .unexpected("a change_cipher_spec that is not the byte 1") }
        if state == .waitChangeCipherSpec12 { return try activateServerKeys12() }
        let beforeServerFinished = [State.waitServerHello, .waitEncryptedExtensions, .waitCertificateOrRequest, .waitCertificate,
                                    .waitCertificateVerify, .waitFinished].contains(state)
        guard version != .tls12, beforeServerFinished else { throw .unexpected("a change_cipher_spec in state \(state)") }
        recordsWithoutData += 1
        guard recordsWithoutData <= Self.maximumRecordsWithoutData else { throw .unexpected("a flood of change_cipher_spec records") }
    }

    /// RFC 8446 §6: close_notify ends the connection; in TLS 1.3 every other alert is fatal.
    /// TLS 1.2's warnings (RFC 5246 §7.2) are tolerated, a few in a row.
    private mutating func receiveAlert(_ content: [UInt8], _ output: inout Output) throws(TLSError) {
        guard content.count == 2 else { throw .decode("an alert of \(content.count) bytes") }
        let alert = TLSAlert(rawValue: content[1])
        if alert == .closeNotify {
            state = .closed
            output.peerClosed = true
            return
        }
        if content[0] == 1 && version != .tls13 && alert != .userCanceled {
            warningAlerts += 1
            guard warningAlerts <= Self.maximumWarningAlerts else { throw .unexpected("too many warning alerts") }
            return
        }
        throw TLSError(.peerAlert, alert: alert, "the server sent \(alert)")
    }

    private mutating func receiveHandshake(_ message: [UInt8], _ output: inout Output) throws(TLSError) {
        let type = TLSHandshakeType(rawValue: message[0])
        let body = Array(message[4...])
        if state == .connected { return try receivePostHandshake(type, body, &output) }
        // RFC 5246 §7.4.1.1 lets a client ignore a HelloRequest while a handshake runs; none is
        // sent by a server that means well, and handshake records are exempt from the flood
        // limit, so it is refused like any message out of order.
        if type == .helloRequest { throw .unexpected("a HelloRequest during the handshake") }
        switch state {
        case .waitServerHello:
            guard type == .serverHello else { throw .unexpected("handshake message \(type.rawValue) before ServerHello") }
            try receiveServerHello(message, body, &output)
        case .waitEncryptedExtensions, .waitCertificateOrRequest, .waitCertificate, .waitCertificateVerify, .waitFinished:
            try receiveHandshake13(type, message, body, &output)
        default:
            try receiveHandshake12(type, message, body, &output)
        }
    }

    private mutating func receivePostHandshake(_ type: TLSHandshakeType, _ body: [UInt8], _ output: inout Output) throws(TLSError) {
        postHandshakeMessages += 1
        guard postHandshakeMessages <= Self.maximumPostHandshakeMessages else {
            throw .unexpected("more than \(Self.maximumPostHandshakeMessages) handshake messages without application data")
        }
        if version == .tls13 { return try receivePostHandshake13(type, body, &output) }
        if type == .helloRequest { throw TLSError(.renegotiationRefused, alert: .noRenegotiation, "the server asked to renegotiate") }
        throw .unexpected("handshake message \(type.rawValue) after the handshake")
    }

    /// The ServerHello decides the version (RFC 8446 §4.2.1, §4.1.3).
    private mutating func receiveServerHello(_ message: [UInt8], _ body: [UInt8], _ output: inout Output) throws(TLSError) {
        let serverHello = try ServerHello(body: body)
        guard let hello else { throw .violation(.internalError, "no ClientHello") }
        if let selected = try serverHello.selectedVersion() {
            // §4.2.1: a supported_versions below 1.3, or not offered, is illegal_parameter.
            guard selected == .tls13, hello.versions.contains(.tls13), serverHello.legacyVersion == TLSVersion.tls12.rawValue else {
                throw .violation(.illegalParameter, "the server selected \(selected)")
            }
            version = .tls13
            if serverHello.isHelloRetryRequest { return try receiveHelloRetryRequest(serverHello, message, &output) }
            return try receiveServerHello13(serverHello, message, &output)
        }
        guard !receivedHelloRetry, serverHello.legacyVersion == TLSVersion.tls12.rawValue, hello.versions.contains(.tls12) else {
            throw .violation(.protocolVersion, "the server chose version 0x\(String(serverHello.legacyVersion, radix: 16))")
        }
        // RFC 8446 §4.1.3: a TLS 1.3 client offered to a 1.2 server must check the downgrade sentinel.
        let sentinel = Array(serverHello.random.suffix(8))
        if hello.versions.contains(.tls13), sentinel == Array("DOWNGRD".utf8) + [1] || sentinel == Array("DOWNGRD".utf8) + [0] {
            throw .violation(.illegalParameter, "the server's random carries the TLS 1.3 downgrade sentinel")
        }
        version = .tls12
        try receiveServerHello12(serverHello, message)
    }
}
