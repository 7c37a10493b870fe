// A transport that can pin (the other side of AuthNetworking's `CertificatePins` hook).
// FoundationNetworking on Linux exposes no
// server-trust challenge, so URLSessionTransport cannot pin; SwiftNIO SSL shows the peer's
// certificate. This HTTP/1.1 client validates the chain against its trust roots (the system
// store by default) and the host name as usual, then refuses the connection — before a byte of
// the request is written — unless the leaf's DER or SPKI SHA-256 is one of the pins. It lives
// in Servers/ because it needs SwiftNIO; the root package stays dependency-free.

public import AuthNetworking
import CryptoPrimitives
import Foundation
import NIOCore
import NIOHTTP1
public import NIOSSL
import NIOPosix
public import ProtocolSupport

/// An HTTP/1.1 client over SwiftNIO (one connection per request) that enforces
/// ``AuthNetworking/CertificatePins`` on `https` URLs.
public struct PinnedTLSTransport: HTTPTransport {
    /// The base URL; a request's path is appended.
    public let baseURL: String
    /// The pins every TLS peer must match; `nil` validates the chain only.
    public let pins: CertificatePins?
    /// The CA certificates trusted for the chain (`nil`: the system trust store).
    public let trustRoots: [NIOSSLCertificate]?
    /// Seconds to wait for the whole exchange.
    public let timeout: Double
    /// The base URL (a client's URL policy judges it too).
    public var destination: String? { baseURL }
    /// How much of an answer is read before the request fails with
    /// ``AuthNetworking/TransportError/Kind/responseTooLarge`` (no content decoding happens here).
    public let limits: ResponseLimits

    /// A transport for `baseURL` enforcing `pins`.
    public init(baseURL: String, pins: CertificatePins?, trustRoots: [NIOSSLCertificate]? = nil, timeout: Double = 20,
                limits: ResponseLimits = ResponseLimits()) {
        self.baseURL = baseURL
        self.pins = pins
        self.trustRoots = trustRoots
        self.timeout = timeout
        self.limits = limits
    }

    struct PinMismatch: Error {}

    /// Whether this exchange's pin check refused the peer. The handshake runs while the request
    /// head is being written, so the first error the caller sees may be the write's "I/O on
    /// closed channel" rather than the refusal itself; the verdict says which it really was.
    final class PinVerdict: @unchecked Sendable {
        private let lock = NSLock()
        private var refused = false
        var isRefused: Bool { lock.withLock { refused } }
        func refuse() { lock.withLock { refused = true } }
    }

    /// Sends `request`; any HTTP status but a redirect is an answer. A peer that fails validation
    /// or matches no pin is ``TransportError/Kind/tls``; the method, URL and header fields pass
    /// ``AuthNetworking/HTTPSendPolicy`` first (``TransportError/Kind/invalidRequest``); a 3xx is
    /// ``TransportError/Kind/redirectRefused``, never followed; a body over ``limits`` is
    /// ``TransportError/Kind/responseTooLarge``.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let urlText = request.url(relativeTo: baseURL)
        try HTTPSendPolicy.validate(method: request.method, target: urlText, headers: request.headers)
        guard let url = URL(string: urlText), let components = URLComponents(string: urlText), let scheme = url.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let host = url.host else {
            throw TransportError(.invalidRequest, underlying: "not an http(s) URL")
        }
        try HTTPSendPolicy.validateHeaders([HTTPHeader("Host", host)])
        let secure = scheme == "https"
        let port = url.port ?? (secure ? 443 : 80)
        // The target as encoded on the wire: `url.path` is percent-decoded (`%0D%0A` would
        // become a raw CRLF, `%2F` a `/`).
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let target = components.percentEncodedQuery.map { path + "?" + $0 } ?? path
        let tls: TLSConfiguration? = secure ? {
            var configuration = TLSConfiguration.makeClientConfiguration()
            if let trustRoots { configuration.trustRoots = .certificates(trustRoots) }
            return configuration
        }() : nil
        let pins = pins
        let limits = limits
        // A caller's timeout, made finite and sane before any arithmetic (0.1 s to a day).
        let deadline = timeout.isFinite ? min(max(timeout, 0.1), 86_400) : 20
        do {
            return try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
                group.addTask {
                    try await Self.exchange(host: host, port: port, target: target, request: request, tls: tls, pins: pins, limits: limits)
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(Int(deadline * 1000)))
                    throw TransportError(.timedOut, underlying: "no answer within \(deadline) s")
                }
                guard let first = try await group.next() else { throw TransportError(.other, underlying: "no result") }
                group.cancelAll()
                return first
            }
        } catch {
            throw Self.classify(error)
        }
    }

    private static func exchange(host: String, port: Int, target: String, request: HTTPRequest, tls: TLSConfiguration?,
                                 pins: CertificatePins?, limits: ResponseLimits) async throws -> HTTPResponse {
        let verdict = PinVerdict()
        do {
            return try await exchange(host: host, port: port, target: target, request: request, tls: tls, pins: pins, limits: limits, verdict: verdict)
        } catch {
            if verdict.isRefused { throw PinMismatch() }
            throw error
        }
    }

    private static func exchange(host: String, port: Int, target: String, request: HTTPRequest, tls: TLSConfiguration?,
                                 pins: CertificatePins?, limits: ResponseLimits, verdict: PinVerdict) async throws -> HTTPResponse {
        let context = try tls.map { try NIOSSLContext(configuration: $0) }
        let isAddress = host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" }
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        let handler: NIOSSLClientHandler
                        if let pins {
                            // After the usual chain and name validation: the pin check (§6 of cm-authenticator.md).
                            handler = try NIOSSLClientHandler._makeSSLClientHandler(context: context, serverHostname: isAddress ? nil : host) { leaf, channel in
                                guard let der = try? leaf.toDERBytes() else {
                                    verdict.refuse()
                                    return channel.eventLoop.makeFailedFuture(PinMismatch())
                                }
                                let spki = try? leaf.extractPublicKey().toSPKIBytes()
                                let accepted = pins.accepts(certificateSHA256: SHA256.hash(data: der).bytes, spkiSHA256: spki.map { SHA256.hash(data: $0).bytes })
                                if !accepted { verdict.refuse() }
                                return accepted ? channel.eventLoop.makeSucceededVoidFuture() : channel.eventLoop.makeFailedFuture(PinMismatch())
                            }
                        } else {
                            handler = try NIOSSLClientHandler(context: context, serverHostname: isAddress ? nil : host)
                        }
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue), uri: target)
            head.headers.add(name: "Host", value: port == 443 || port == 80 ? host : "\(host):\(port)")
            for header in request.headers { head.headers.add(name: header.name, value: header.value) }
            head.headers.add(name: "Content-Length", value: String(request.body?.count ?? 0))
            head.headers.add(name: "Connection", value: "close")
            do {
                try await outbound.write(.head(head))
                if let body = request.body, !body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
                try await outbound.write(.end(nil))
            } catch {
                // A failed handshake closes the channel under the writes, which then only say "I/O
                // on closed channel"; the inbound side carries the handshake's own error.
                for try await _ in inbound {}
                throw error
            }
            var status = 0
            var headers: [HTTPHeader] = []
            var body: [UInt8] = []
            for try await part in inbound {
                switch part {
                case .head(let responseHead):
                    status = Int(responseHead.status.code)
                    headers = responseHead.headers.map { HTTPHeader($0.name, $0.value) }
                    // DESIGN.md §1: a 3xx is an error, never followed; an announced body over the limit is not read.
                    try HTTPSendPolicy.refuseRedirect(status: status, location: responseHead.headers.first(name: "Location"))
                    if let length = responseHead.headers.first(name: "Content-Length").flatMap({ Int64($0) }) {
                        try HTTPSendPolicy.checkAnnouncedLength(length, limits: limits)
                    }
                case .body(let buffer):
                    try HTTPSendPolicy.checkReceived(body.count + buffer.readableBytes, limits: limits)
                    body += buffer.readableBytesView
                case .end: return HTTPResponse(status: status, headers: headers, body: body)
                }
            }
            throw TransportError(.badResponse, underlying: "the connection closed before the answer ended")
        }
    }

    static func classify(_ error: any Error) -> TransportError {
        switch error {
        case let error as TransportError: return error
        case is PinMismatch: return TransportError(.tls, underlying: "the server's certificate matches no pin")
        case is CancellationError: return TransportError(.cancelled)
        case let error as NIOSSLError: return TransportError(.tls, underlying: "\(error)")
        case let error as BoringSSLError: return TransportError(.tls, underlying: "\(error)")
        case let error as NIOConnectionError: return TransportError(.unreachable, underlying: "\(error)")
        case let error as IOError: return TransportError(.unreachable, underlying: "\(error)")
        case is ChannelError: return TransportError(.badResponse, underlying: "\(error)")
        default:
            let text = "\(error)"
            return TransportError(text.contains("PinMismatch") || text.contains("SSL") ? .tls : .other, underlying: text)
        }
    }
}
