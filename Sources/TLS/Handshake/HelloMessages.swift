// ClientHello (RFC 8446 §4.1.2, with the TLS 1.2 extensions of RFC 7627, RFC 5746, RFC 8422 and
// RFC 7301) and ServerHello / HelloRetryRequest (§4.1.3, §4.1.4).

/// What the client puts in its ClientHello.
struct ClientHelloParameters {
    var random: [UInt8]
    var sessionID: [UInt8]
    var cipherSuites: [TLSCipherSuite]
    var versions: [TLSVersion]
    var groups: [TLSNamedGroup]
    var keyShares: [(TLSNamedGroup, [UInt8])]
    var serverName: String?
    var applicationProtocols: [String]
    var cookie: [UInt8]?

    /// The whole handshake message.
    func encoded() -> [UInt8] {
        let offersTLS12 = versions.contains(.tls12)
        return TLSWriter.handshakeMessage(.clientHello) { body in
            body.writeUInt16(TLSVersion.tls12.rawValue)  // legacy_version (§4.1.2)
            body.writeBytes(random)
            body.writeVector(lengthBytes: 1) { $0.writeBytes(sessionID) }
            body.writeVector(lengthBytes: 2) { list in for suite in cipherSuites { list.writeUInt16(suite.rawValue) } }
            body.writeVector(lengthBytes: 1) { $0.writeUInt8(0) }  // null compression only
            body.writeVector(lengthBytes: 2) { extensions in
                if let serverName {  // RFC 6066 §3: one host_name
                    extensions.writeExtension(.serverName) { data in
                        data.writeVector(lengthBytes: 2) { list in
                            list.writeUInt8(0)
                            list.writeVector(lengthBytes: 2) { $0.writeBytes(Array(serverName.utf8)) }
                        }
                    }
                }
                extensions.writeExtension(.supportedVersions) { data in
                    data.writeVector(lengthBytes: 1) { list in for version in versions { list.writeUInt16(version.rawValue) } }
                }
                extensions.writeExtension(.supportedGroups) { data in
                    data.writeVector(lengthBytes: 2) { list in for group in groups { list.writeUInt16(group.rawValue) } }
                }
                extensions.writeExtension(.signatureAlgorithms) { data in
                    data.writeVector(lengthBytes: 2) { list in for scheme in TLSSignatureScheme.offered { list.writeUInt16(scheme.rawValue) } }
                }
                if versions.contains(.tls13) {
                    extensions.writeExtension(.keyShare) { data in
                        data.writeVector(lengthBytes: 2) { list in
                            for (group, share) in keyShares {
                                list.writeUInt16(group.rawValue)
                                list.writeVector(lengthBytes: 2) { $0.writeBytes(share) }
                            }
                        }
                    }
                }
                if let cookie {
                    extensions.writeExtension(.cookie) { data in data.writeVector(lengthBytes: 2) { $0.writeBytes(cookie) } }
                }
                if !applicationProtocols.isEmpty {
                    extensions.writeExtension(.applicationLayerProtocolNegotiation) { data in
                        data.writeVector(lengthBytes: 2) { list in
                            for name in applicationProtocols { list.writeVector(lengthBytes: 1) { $0.writeBytes(Array(name.utf8)) } }
                        }
                    }
                }
                if offersTLS12 {
                    extensions.writeExtension(.extendedMasterSecret) { _ in }                       // RFC 7627 §5.1
                    extensions.writeExtension(.renegotiationInfo) { $0.writeUInt8(0) }            // RFC 5746 §3.4: empty
                    extensions.writeExtension(.ecPointFormats) { $0.writeVector(lengthBytes: 1) { $0.writeUInt8(0) } }  // RFC 8422 §5.1.2
                }
            }
        }
    }
}

extension TLSWriter {
    mutating func writeExtension(_ type: TLSExtensionType, _ body: (inout TLSWriter) -> Void) {
        writeUInt16(type.rawValue)
        writeVector(lengthBytes: 2, body)
    }
}

/// A parsed extension block: each type at most once (RFC 8446 §4.2).
struct TLSExtensions {
    private(set) var entries: [(type: TLSExtensionType, data: [UInt8])] = []

    init(_ reader: inout TLSReader, _ what: String) throws(TLSError) {
        guard !reader.isAtEnd else { return }  // the block may be absent in TLS 1.2 (RFC 5246 §7.4.1.3)
        var block = try reader.readNested(lengthBytes: 2, "\(what) extensions")
        while !block.isAtEnd {
            let type = TLSExtensionType(rawValue: try block.readUInt16("extension type"))
            let data = try block.readVector(lengthBytes: 2, "extension data")
            guard !entries.contains(where: { $0.type == type }) else {
                throw .violation(.illegalParameter, "extension \(type.rawValue) twice in \(what)")
            }
            entries.append((type, data))
        }
    }

    subscript(_ type: TLSExtensionType) -> [UInt8]? { entries.first { $0.type == type }?.data }

    /// Throws `unsupported_extension` for any extension outside `allowed` (§4.2: a peer may
    /// send only extensions the client offered, in the messages that allow them).
    func requireOnly(_ allowed: Set<TLSExtensionType>, in what: String) throws(TLSError) {
        if let other = entries.first(where: { !allowed.contains($0.type) }) {
            throw .violation(.unsupportedExtension, "extension \(other.type.rawValue) in \(what)")
        }
    }
}

/// A ServerHello or HelloRetryRequest (RFC 8446 §4.1.3; RFC 5246 §7.4.1.3 for TLS 1.2).
struct ServerHello {
    /// The special random of a HelloRetryRequest: SHA-256 of "HelloRetryRequest" (§4.1.3).
    static let helloRetryRandom: [UInt8] = [
        0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
        0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
    ]

    let legacyVersion: UInt16
    let random: [UInt8]
    let sessionID: [UInt8]
    let cipherSuite: TLSCipherSuite
    let extensions: TLSExtensions

    var isHelloRetryRequest: Bool { random == Self.helloRetryRandom }

    /// Parses the body of the handshake message.
    init(body: [UInt8]) throws(TLSError) {
        var reader = TLSReader(body)
        legacyVersion = try reader.readUInt16("ServerHello version")
        random = try reader.readBytes(32, "ServerHello random")
        sessionID = try reader.readVector(lengthBytes: 1, "ServerHello session id", allowed: 0...32)
        cipherSuite = TLSCipherSuite(rawValue: try reader.readUInt16("ServerHello cipher suite"))
        guard try reader.readUInt8("ServerHello compression") == 0 else {
            throw .violation(.illegalParameter, "the server chose compression")
        }
        extensions = try TLSExtensions(&reader, "ServerHello")
        try reader.finish("ServerHello")
    }

    /// The version in supported_versions (§4.2.1), nil when the extension is absent.
    func selectedVersion() throws(TLSError) -> TLSVersion? {
        guard let data = extensions[.supportedVersions] else { return nil }
        var reader = TLSReader(data)
        let version = TLSVersion(rawValue: try reader.readUInt16("selected version"))
        try reader.finish("supported_versions")
        return version
    }
}
