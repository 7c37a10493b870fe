// PlainHTTPTransport: the HTTP/1.1 framing on hand-written wire bytes (RFC 9112's examples of
// Content-Length, chunked with extensions and trailers, close-delimited, HEAD/204), every
// malformed answer a typed error; then the transport over real sockets on 127.0.0.1.

import AuthNetworking
import CryptoPrimitives
import Foundation
import PlainHTTPTransport
import ProtocolSupport
import Testing
import TestSupport

@Suite struct PlainHTTPTransportTests {
    static func wire(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func framesByContentLengthChunkingOrClose() throws {
        let sized = try HTTP1Message.parseResponse(Self.wire("HTTP/1.1 201 Created\r\nContent-Length: 5\r\nX-A:  b \r\n\r\nhello"), connectionClosed: false)
        #expect(sized.status == 201 && sized.body == Self.wire("hello") && sized.header("x-a") == "b")
        // RFC 9112 §7.1: sizes in hex, extensions after ';', a trailer section before the end.
        let chunked = try HTTP1Message.parseResponse(
            Self.wire("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n9\r\npedia in \r\n0\r\nExpires: never\r\n\r\n"), connectionClosed: false)
        #expect(chunked.body == Self.wire("Wikipedia in "))
        let closed = try HTTP1Message.parseResponse(Self.wire("HTTP/1.0 500 Oops\r\n\r\n<html>"), connectionClosed: true)
        #expect(closed.status == 500 && closed.body == Self.wire("<html>"))
        let empty = try HTTP1Message.parseResponse(Self.wire("HTTP/1.1 204 No Content\r\n\r\n"), connectionClosed: false)
        #expect(empty.status == 204 && empty.body.isEmpty)
        let head = try HTTP1Message.parseResponse(Self.wire("HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n"), connectionClosed: false, hasNoBody: true)
        #expect(head.body.isEmpty)
    }

    /// RFC 9112 §2.2, §5.5: a bare CR or LF, NUL or ESC inside a response header value is refused.
    @Test func controlBytesInAResponseHeaderValueAreRefused() {
        for value in ["a\rb", "a\nb", "a\u{0}b", "a\u{1B}[2Jb"] {
            #expect(throws: (any Error).self) {
                try HTTP1Message.parseResponse(Self.wire("HTTP/1.1 307 Moved\r\nLocation: \(value)\r\nContent-Length: 0\r\n\r\n"), connectionClosed: false)
            }
        }
        #expect(throws: Never.self) {
            try HTTP1Message.parseResponse(Self.wire("HTTP/1.1 200 OK\r\nX-A: tab\there ok é\r\nContent-Length: 0\r\n\r\n"), connectionClosed: false)
        }
    }

    /// Interim answers are skipped, but not forever, and an unrequested 101 is malformed.
    @Test func interimAnswersAreBounded() throws {
        let two = String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 2) + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        #expect(try HTTP1Message.parseResponse(Self.wire(two), connectionClosed: false).status == 200)
        let endless = String(repeating: "HTTP/1.1 102 Processing\r\n\r\n", count: 9) + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
        #expect(throws: (any Error).self) { try HTTP1Message.parseResponse(Self.wire(endless), connectionClosed: false) }
        #expect(throws: (any Error).self) {
            try HTTP1Message.parseResponse(Self.wire("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n"), connectionClosed: false)
        }
    }

    @Test func partialAnswersAskForMoreAndBadOnesAreTyped() {
        let incomplete = ["HTTP/1.1 200 OK\r\nContent-Le", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
                          "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", "HTTP/1.1 200 OK\r\n\r\nopen"]
        for text in incomplete {
            #expect(throws: HTTP1Message.ParseError.incomplete, "\(text.debugDescription)") {
                try HTTP1Message.parseResponse(Self.wire(text), connectionClosed: false)
            }
        }
        let malformed = ["HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 2x0 OK\r\n\r\n", "ICY 200 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nNo colon\r\n\r\n",
                         "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
                         "HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nhello", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
                         "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n"]
        for text in malformed {
            #expect(throws: HTTP1Message.ParseError.self, "\(text.debugDescription)") {
                try HTTP1Message.parseResponse(Self.wire(text), connectionClosed: true)
            }
            #expect((try? HTTP1Message.parseResponse(Self.wire(text), connectionClosed: true)) == nil)
        }
        var limits = HTTP1Message.Limits()
        limits.bodyBytes = 4
        #expect(throws: HTTP1Message.ParseError.tooLarge) {
            try HTTP1Message.parseResponse(Self.wire("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"), connectionClosed: false, limits: limits)
        }
    }

    /// The incremental reader gives the same answer fed whole, byte by byte and in random splits
    /// (TestRandom logs its seed), and refuses an over-long head, chunk line or trailer section as it grows.
    @Test func readerAgreesAcrossSplitsAndEnforcesLimitsAsItReads() throws {
        let answers = ["HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhello",
                       "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n9\r\npedia in \r\n0\r\nExpires: never\r\n\r\n",
                       "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://elsewhere/\r\nContent-Length: 0\r\n\r\n"]
        var random = TestRandom("readerAgreesAcrossSplitsAndEnforcesLimitsAsItReads")
        for answer in answers {
            let bytes = Self.wire(answer)
            let whole = try HTTP1Message.parseResponse(bytes, connectionClosed: false)
            var byteByByte = HTTP1ResponseReader()
            var result: HTTPResponse?
            for byte in bytes where result == nil { result = try byteByByte.consume([byte]) }
            #expect(result == whole, "byte by byte: \(answer.debugDescription)")
            var split = HTTP1ResponseReader()
            var index = 0
            result = nil
            while index < bytes.count, result == nil {
                let end = min(bytes.count, index + 1 + Int(random.next() % 7))
                result = try split.consume(bytes[index..<end])
                index = end
            }
            #expect(result == whole, "random splits: \(answer.debugDescription)")
        }
        var limits = HTTP1Message.Limits()
        limits.headBytes = 100
        limits.chunkLineBytes = 16
        let overLimit = ["HTTP/1.1 200 OK\r\nX-Long: " + String(repeating: "a", count: 200),
                         "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;" + String(repeating: "e", count: 20),
                         "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T: " + String(repeating: "t", count: 200)]
        for text in overLimit {
            var reader = HTTP1ResponseReader(limits: limits)
            #expect(throws: HTTP1Message.ParseError.tooLarge, "\(text.prefix(60).debugDescription)") {
                for byte in Self.wire(text) { _ = try reader.consume([byte]) }
            }
        }
    }

    @Test func sendsOverLoopbackAndTypesEveryFault() async throws {
        let server = try LoopbackServer { request in
            request.target.hasPrefix("/base/chunked")
                ? Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n".utf8)
                : LoopbackServer.response(status: 200, headers: [("X-Answer", "42")], body: request.body.reversed())
        }
        defer { server.stop() }
        var configuration = PlainHTTPTransport.Configuration(baseURL: server.baseURL + "/base/")
        configuration.additionalHeaders = [HTTPHeader("X-App", "mfa")]
        let transport = PlainHTTPTransport(configuration: configuration, logger: .disabled)
        let body = Array(#"{"a":1}"#.utf8)
        let request = HTTPRequest(method: .post, path: "pa/v3/x", query: [HTTPHeader("a b", "c&d")], headers: [HTTPHeader("X-App", "own")], body: body)
        let response = try await transport.send(request)
        #expect(response.status == 200 && response.header("X-Answer") == "42" && response.body == body.reversed())
        let seen = try #require(server.requests.first)
        #expect(seen.method == "POST" && seen.target == "/base/pa/v3/x?a%20b=c%26d" && seen.body == body)
        #expect(seen.header("X-App") == "own" && seen.header("Host") == String(server.baseURL.dropFirst(7)))
        #expect(try await transport.send(HTTPRequest(method: .get, path: "chunked")).body == Array("abc".utf8))
        // Secret fields go from their bytes to the wire: the header as it is, the query value as %XX triples.
        let secret = HTTPRequest(method: .get, path: "s", query: [HTTPHeader("regOTT", secret: SecretBytes("A+\t".utf8))],
                                 headers: [HTTPHeader("Access-Token", secret: SecretBytes("tok\t+/=".utf8))])
        #expect(try await transport.send(secret).status == 200)
        let seenSecret = try #require(server.requests.last)
        #expect(seenSecret.target == "/base/s?regOTT=%41%2B%09" && seenSecret.header("Access-Token") == "tok\t+/=")

        let closed = try LoopbackServer { _ in nil }
        closed.stop()
        await #expect(throws: TransportError(.unreachable)) {
            try await PlainHTTPTransport(configuration: .init(baseURL: closed.baseURL), logger: .disabled).send(HTTPRequest(method: .get, path: "x"))
        }
        await #expect(throws: TransportError(.invalidRequest)) {
            try await PlainHTTPTransport(configuration: .init(baseURL: "https://127.0.0.1:1"), logger: .disabled).send(HTTPRequest(method: .get, path: "x"))
        }
        let garbage = try LoopbackServer { _ in Array("SSH-2.0-OpenSSH\r\n\r\n".utf8) }
        defer { garbage.stop() }
        await #expect(throws: TransportError(.badResponse)) {
            try await PlainHTTPTransport(configuration: .init(baseURL: garbage.baseURL), logger: .disabled).send(HTTPRequest(method: .get, path: "x"))
        }
        let cut = try LoopbackServer { _ in Array(LoopbackServer.response(status: 200, body: Array(repeating: 0x41, count: 1000)).dropLast(500)) }
        defer { cut.stop() }
        await #expect(throws: TransportError(.badResponse)) {
            try await PlainHTTPTransport(configuration: .init(baseURL: cut.baseURL), logger: .disabled).send(HTTPRequest(method: .get, path: "x"))
        }
        // Held open far past the timeout: only the deadline can end the call.
        let silent = try LoopbackServer.silent()
        defer { silent.stop() }
        var slow = PlainHTTPTransport.Configuration(baseURL: silent.baseURL)
        slow.timeout = 0.3
        await #expect(throws: TransportError(.timedOut)) {
            try await PlainHTTPTransport(configuration: slow, logger: .disabled).send(HTTPRequest(method: .get, path: "x"))
        }
    }
}
