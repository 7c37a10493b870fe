// The transport `mfa` sends with: TLSTransport, the package's own HTTPS (docs/static-and-embedded.md:
// glibc only, so the static build speaks https:// too), trusting the system's CA bundle, the
// certificates of `--ca-file`, or the keys `--pinned-key` names. Built with the `URLSession`
// trait, `MFA_TRANSPORT=urlsession` chooses URLSessionTransport instead (libcurl's TLS, the
// system trust store, no pinning).

import AuthNetworking
import CryptoPrimitives
import FoundationEssentials
import MFACommandLine
import TLS
import TLSTransport
#if URLSession
import URLSessionTransport
#endif

enum CommandTransport {
    /// Which transport this run uses, for messages.
    static var name: String { usesURLSession ? "URLSessionTransport" : "TLSTransport" }

    private static var usesURLSession: Bool {
        #if URLSession
        return ProcessInfo.processInfo.environment["MFA_TRANSPORT"] == "urlsession"
        #else
        return false
        #endif
    }

    /// The factory every client of a command is given: a transport per base URL honouring
    /// `--ca-file` and `--pinned-key`, and the pins a client asks for (CM's).
    static func factory(_ options: CommandOptions) throws -> HTTPTransportFactory {
        let (trust, pins) = try trust(options)
        #if URLSession
        if usesURLSession {
            guard trust == .systemRoots, pins == nil else {
                throw UsageError(description: "--ca-file and --pinned-key need mfa's own transport (unset MFA_TRANSPORT)")
            }
            return .perBaseURL { baseURL in
                var configuration = URLSessionTransport.Configuration(baseURL: baseURL)
                configuration.logger = Logger(level: .errors)
                return URLSessionTransport(configuration: configuration)
            }
        }
        #endif
        return .tls { configuration in
            configuration.trust = trust
            configuration.pins = pins
        }
    }

    /// A transport to `baseURL` as ``factory(_:)`` makes it.
    static func make(baseURL: String, _ options: CommandOptions) throws -> any HTTPTransport {
        try factory(options).transport(baseURL: baseURL)
    }

    /// The trust `--ca-file` and `--pinned-key` ask for: the system's anchors by default; the
    /// file's certificates instead; the pinned keys alone when there is no file.
    static func trust(_ options: CommandOptions) throws -> (TLSTransport.Trust, TLSPins?) {
        let pins = try options.repeated["--pinned-key", default: []].map(pinDigest)
        var trust = TLSTransport.Trust.systemRoots
        if let path = options.values["--ca-file"] {
            guard let data = FileManager.default.contents(atPath: path), data.count <= 8 << 20 else {
                throw UsageError(description: "--ca-file \(path) cannot be read")
            }
            let anchors = TrustAnchors(pemBundle: String(decoding: data, as: UTF8.self))
            guard anchors.count > 0 else { throw UsageError(description: "--ca-file \(path) holds no PEM certificate") }
            trust = .anchors(anchors)
        } else if !pins.isEmpty {
            trust = .pinnedKeysOnly
        }
        return (trust, pins.isEmpty ? nil : TLSPins(spkiSHA256: pins))
    }

    /// `sha256//BASE64` (curl's --pinnedpubkey form), `sha256/BASE64`, or 64 hex digits: 32 bytes.
    static func pinDigest(_ text: String) throws -> [UInt8] {
        var body = Substring(text)
        for prefix in ["sha256//", "sha256/"] where body.hasPrefix(prefix) {
            body = body.dropFirst(prefix.count)
            break
        }
        let bytes: [UInt8]?
        if body.count == 64, body.allSatisfy(\.isHexDigit) {
            bytes = stride(from: 0, to: 64, by: 2).map { index in
                UInt8(body[body.index(body.startIndex, offsetBy: index)..<body.index(body.startIndex, offsetBy: index + 2)], radix: 16) ?? 0
            }
        } else {
            do throws(CryptoError) { bytes = try Base64.decode(String(body)) } catch { bytes = nil }
        }
        guard let bytes, bytes.count == 32 else {
            throw UsageError(description: "--pinned-key \(text) is not a SHA-256 digest (sha256//BASE64 or 64 hex digits)")
        }
        return bytes
    }
}
