// The identity the client expects (RFC 6125 §6): a DNS name matched against the leaf's dNSName
// entries — subjectAltName only, never the subject's common name (§6.4.4 allows that only
// when no SAN exists; the WebPKI has dropped it) — or an IP address matched against its
// iPAddress entries. Wildcards only as the whole leftmost label, standing for exactly one
// label, and never in a name of fewer than three labels (§6.4.3, CA/Browser Forum).

/// The host a connection is for.
public enum ServerIdentity: Sendable, Equatable, CustomStringConvertible {
    /// A DNS name, lower-cased, without a trailing dot.
    case dnsName(String)
    /// An IPv4 (4 bytes) or IPv6 (16 bytes) address.
    case ipAddress([UInt8])

    /// The identity of a URL's host: an IPv4 dotted quad, an IPv6 literal (brackets
    /// optional), or else a DNS name of letters, digits, hyphens and dots. Nil for anything else.
    public init?(host: String) {
        var text = host
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let v4 = Self.parseIPv4(text) {
            self = .ipAddress(v4)
        } else if text.contains(":") {
            guard let v6 = Self.parseIPv6(text) else { return nil }
            self = .ipAddress(v6)
        } else {
            var name = text.lowercased()
            if name.hasSuffix(".") { name.removeLast() }
            let labels = name.split(separator: ".", omittingEmptySubsequences: false)
            guard !name.isEmpty, name.utf8.count <= 253,
                  labels.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 63 && $0.utf8.allSatisfy(Self.isHostCharacter) }),
                  // A last label of digits only is an address in some resolvers' reading
                  // ("1.2.3.4.", "0x7f.1"), never a name a CA certifies.
                  let last = labels.last, !last.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            self = .dnsName(name)
        }
    }

    /// The name for SNI (RFC 6066 §3: DNS names only), nil for an address.
    var serverName: String? {
        if case .dnsName(let name) = self { return name }
        return nil
    }

    /// Whether the leaf names this identity.
    func isNamed(by certificate: X509Certificate) -> Bool {
        switch self {
        case .ipAddress(let address):
            return certificate.ipAddresses.contains(address)
        case .dnsName(let name):
            return certificate.dnsNames.contains { Self.matches(presented: $0, reference: name) }
        }
    }

    /// RFC 6125 §6.4: case-insensitive, a wildcard as the whole first label of a name with at
    /// least three labels, matching one non-empty label. A presented name with a trailing dot
    /// is not in RFC 5280's preferred syntax (§4.2.1.6) and matches nothing.
    static func matches(presented: String, reference: String) -> Bool {
        let pattern = presented.lowercased()
        guard !pattern.isEmpty, !pattern.hasSuffix(".") else { return false }
        guard pattern.hasPrefix("*.") else { return pattern == reference }
        let suffix = pattern.dropFirst(2)
        guard suffix.split(separator: ".", omittingEmptySubsequences: false).count >= 2, !suffix.contains("*"),
              let dot = reference.firstIndex(of: "."), dot > reference.startIndex else { return false }
        return reference[reference.index(after: dot)...] == suffix
    }

    private static func isHostCharacter(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x5F
    }

    /// A dotted quad of four decimal numbers 0–255 without leading zeros.
    static func parseIPv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.count <= 3, part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  part == "0" || !part.hasPrefix("0"), let value = UInt8(part) else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    /// An IPv6 literal (RFC 4291 §2.2): eight groups of up to four hex digits, one `::`, and an
    /// optional trailing dotted quad.
    static func parseIPv6(_ text: String) -> [UInt8]? {
        let halves = text.components(separatedByString: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains("."), let v4 = parseIPv4(String(piece)) {
                    result.append(UInt16(v4[0]) << 8 | UInt16(v4[1]))
                    result.append(UInt16(v4[2]) << 8 | UInt16(v4[3]))
                } else {
                    guard (1...4).contains(piece.utf8.count), let value = UInt16(piece, radix: 16) else { return nil }
                    result.append(value)
                }
            }
            return result
        }
        guard let head = groups(halves[0]) else { return nil }
        var all = head
        if halves.count == 2 {
            guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
            all += [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        }
        guard all.count == 8 else { return nil }
        return all.flatMap { [UInt8($0 >> 8), UInt8(truncatingIfNeeded: $0)] }
    }

    /// The host as text.
    public var description: String {
        switch self {
        case .dnsName(let name): return name
        case .ipAddress(let bytes) where bytes.count == 4: return bytes.map(String.init).joined(separator: ".")
        case .ipAddress(let bytes) where bytes.count != 16: return "invalid address"
        case .ipAddress(let bytes):
            return stride(from: 0, to: bytes.count, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
                .joined(separator: ":")
        }
    }
}

extension String {
    /// The pieces between occurrences of `separator` (no Foundation here).
    func components(separatedByString separator: String) -> [String] {
        var result: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: separator) {
            result.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        result.append(String(rest))
        return result
    }
}
