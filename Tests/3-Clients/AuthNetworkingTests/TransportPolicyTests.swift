// What every transport refuses, over real sockets on 127.0.0.1 (HTTPSendPolicy): a redirect is
// an error naming its status and Location and is never followed — the credential headers must
// not reach a second origin — and a CR, LF or other control character in a header or the
// request target never reaches the wire. Each check runs against both transports of the root
// package: URLSessionTransport (what `mfa` uses by default) and PlainHTTPTransport.

import AuthNetworking
import CryptoPrimitives
import Foundation
import PlainHTTPTransport
import ProtocolSupport
import Testing
import TestSupport
import URLSessionTransport

@Suite struct TransportPolicyTests {
    /// Both root transports for `baseURL`, named for the failure messages.
    static func transports(_ baseURL: String, limits: ResponseLimits = ResponseLimits(), timeout: Double = 10,
                           additionalHeaders: [HTTPHeader] = []) -> [(name: String, transport: any HTTPTransport)] {
        var session = URLSessionTransport.Configuration(baseURL: baseURL)
        session.logger = .disabled
        session.limits = limits
        session.timeout = timeout
        session.additionalHeaders = additionalHeaders
        var plain = PlainHTTPTransport.Configuration(baseURL: baseURL)
        plain.limits = limits
        plain.timeout = timeout
        plain.additionalHeaders = additionalHeaders
        return [("URLSessionTransport", URLSessionTransport(configuration: session)),
                ("PlainHTTPTransport", PlainHTTPTransport(configuration: plain, logger: .disabled))]
    }

    static let credentials = [HTTPHeader("X-PowerAuth-Authorization", "PowerAuth pa_signature=\"SECRET\""),
                              HTTPHeader("X-PowerAuth-Token", "SECRET-TOKEN"), HTTPHeader("Authorization", "Bearer SECRET-BEARER"),
                              HTTPHeader("Access-Token", "SECRET-ACCESS")]

    @Test func redirectsAreRefusedAndNeverFollowed() async throws {
        let elsewhere = try LoopbackServer { _ in LoopbackServer.response(status: 200, body: Array("followed".utf8)) }
        defer { elsewhere.stop() }
        let location = elsewhere.baseURL + "/collect"
        for status in [307, 302, 308] {
            let origin = try LoopbackServer { _ in
                LoopbackServer.response(status: status, reason: "Redirect", headers: [("Location", location)], body: Array("moved".utf8))
            }
            defer { origin.stop() }
            for (name, transport) in Self.transports(origin.baseURL) {
                let request = HTTPRequest(method: .post, path: "pa/v3/token/create", headers: Self.credentials, body: Array("{}".utf8))
                do {
                    let response = try await transport.send(request)
                    Issue.record("\(name) answered \(response.status) \(String(decoding: response.body, as: UTF8.self)) for a \(status)")
                } catch {
                    #expect(error.kind == .redirectRefused, "\(name): \(error)")
                    #expect(error.underlying.contains("\(status)") && error.underlying.contains(location), "\(name): \(error)")
                }
            }
            #expect(origin.requests.count == 2)
        }
        #expect(elsewhere.requests.isEmpty, "the redirect target received \(elsewhere.requests.map(\.head))")
    }

    @Test func controlCharactersInHeadersAndTargetsNeverReachTheWire() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.response(status: 200, body: []) }
        defer { server.stop() }
        let badRequests = [
            HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("X-Note", "a\r\nX-Injected: 1")]),
            HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("X-Note", "a\nX-Injected: 1")]),
            HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("X-Note", "nul\u{0}byte")]),
            HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("X-Note", "del\u{7F}")]),
            HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("Access-Token", secret: SecretBytes("tok\r\nX-Injected: 1".utf8))]),
            HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("Access-Token", secret: SecretBytes("tok\u{7F}".utf8))]),
            HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("Access-Token", secret: SecretBytes("\u{1F}tok".utf8))]),
            HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("X-Injected: 1\r\nX-Note", "a")]),
            HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("Bad Name", "a")]),
            HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("", "a")]),
            HTTPRequest(method: .get, path: "x HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET /y"),
            HTTPRequest(method: .get, path: "a\rb"),
            HTTPRequest(method: .get, path: "a\nb"),
            HTTPRequest(method: .get, path: "a b"),
            HTTPRequest(method: .get, path: "a\tb"),
            HTTPRequest(method: .init(rawValue: "GET /x HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET"), path: "y"),
        ]
        for (name, transport) in Self.transports(server.baseURL) {
            for request in badRequests {
                await #expect(throws: TransportError(.invalidRequest), "\(name): \(request.path.debugDescription) \(request.headers)") {
                    try await transport.send(request)
                }
            }
        }
        // What the transport adds itself goes through the same check.
        for (name, transport) in Self.transports(server.baseURL, additionalHeaders: [HTTPHeader("X-App", "mfa\r\nX-Injected: 1")]) {
            await #expect(throws: TransportError(.invalidRequest), "\(name)") { try await transport.send(HTTPRequest(method: .get, path: "x")) }
        }
        #expect(server.requests.isEmpty, "received \(server.requests.map(\.head))")
    }

    @Test func percentEncodedBytesStayEncoded() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.response(status: 200, body: []) }
        defer { server.stop() }
        for (name, transport) in Self.transports(server.baseURL) {
            let response = try await transport.send(HTTPRequest(method: .get, path: "a%0D%0AX-Injected:%201/b%2Fc", headers: [HTTPHeader("X-Tab", "a\tb")]))
            #expect(response.status == 200, "\(name)")
            let seen = try #require(server.requests.last)
            #expect(seen.target == "/a%0D%0AX-Injected:%201/b%2Fc", "\(name) sent \(seen.target)")
            #expect(seen.header("X-Injected") == nil, "\(name)")
        }
    }
}
