// A transport that can pin (issue "Salt Edge … and CM Authenticator on the wire", point 2, and
// the hook of "PowerAuth on a real wire", point 1). FoundationNetworking on Linux exposes no
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

    /// A transport for `baseURL` enforcing `pins`.
    public init(baseURL: String, pins: CertificatePins?, trustRoots: [NIOSSLCertificate]? = nil, timeout: Double = 20) {
        self.baseURL = baseURL
        self.pins = pins
        self.trustRoots = trustRoots
        self.timeout = timeout
    }

    struct PinMismatch: Error {}

    /// Sends `request`; any HTTP status is an answer. A peer that fails validation or matches no
    /// pin is ``TransportError/Kind/tls``.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard let url = URL(string: request.url(relativeTo: baseURL)), let scheme = url.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let host = url.host else {
            throw TransportError(.invalidRequest, underlying: "not an http(s) URL")
        }
        let secure = scheme == "https"
        let port = url.port ?? (secure ? 443 : 80)
        let path = url.path.isEmpty ? "/" : url.path
        let target = url.query.map { path + "?" + $0 } ?? path
        let tls: TLSConfiguration? = secure ? {
            var configuration = TLSConfiguration.makeClientConfiguration()
            if let trustRoots { configuration.trustRoots = .certificates(trustRoots) }
            return configuration
        }() : nil
        let pins = pins
        let deadline = timeout
        do {
            return try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
                group.addTask {
                    try await Self.exchange(host: host, port: port, target: target, request: request, tls: tls, pins: pins)
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
                                 pins: CertificatePins?) async throws -> HTTPResponse {
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
                                guard let der = try? leaf.toDERBytes() else { return channel.eventLoop.makeFailedFuture(PinMismatch()) }
                                let spki = try? leaf.extractPublicKey().toSPKIBytes()
                                let accepted = pins.accepts(certificateSHA256: SHA256.hash(data: der).bytes, spkiSHA256: spki.map { SHA256.hash(data: $0).bytes })
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
            try await outbound.write(.head(head))
            if let body = request.body, !body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
            try await outbound.write(.end(nil))
            var status = 0
            var headers: [HTTPHeader] = []
            var body: [UInt8] = []
            for try await part in inbound {
                switch part {
                case .head(let responseHead):
                    status = Int(responseHead.status.code)
                    headers = responseHead.headers.map { HTTPHeader($0.name, $0.value) }
                case .body(let buffer): body += buffer.readableBytesView
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
