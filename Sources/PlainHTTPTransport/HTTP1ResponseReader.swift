// The HTTP/1.1 response reader PlainHTTPTransport feeds as bytes arrive (RFC 9112): incremental,
// so every byte is looked at a bounded number of times (a 16 KiB read never re-parses what came
// before), and bounded while it reads — the head, each chunk-size line, the trailer section and
// the body are checked against ``AuthNetworking/ResponseLimits`` the moment they grow, not after
// the peer has finished sending. Pure code over bytes: tested whole, byte by byte and in random
// splits without a socket; every malformed answer is a typed error, never a trap.

public import AuthNetworking
public import ProtocolSupport

/// Reads one HTTP/1.1 response from bytes handed to it in any split.
public struct HTTP1ResponseReader: Sendable {
    private enum State: Sendable {
        case head
        case fixedLength(remaining: Int)
        case untilClose
        case chunkLine
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailer(used: Int)
        case complete
    }

    private let hasNoBody: Bool
    private let limits: ResponseLimits
    private var state = State.head
    /// Received bytes not yet consumed start at `start`; the first `scanned` of them hold no line end.
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var body: [UInt8] = []
    /// Interim (1xx) answers skipped so far; a peer that sends them forever is refused.
    private var interimAnswers = 0

    /// The status and header fields, once the head has arrived (before the body).
    public private(set) var head: HTTPResponse?

    /// Whether the body ends only when the peer closes (RFC 9112 §6.3 rule 8), so the
    /// connection cannot carry another exchange.
    public var isCloseDelimited: Bool {
        if case .untilClose = state { return true }
        return false
    }

    /// A reader for one response; `hasNoBody` is true for an answer to HEAD (RFC 9112 §6.3 rule 1).
    public init(hasNoBody: Bool = false, limits: ResponseLimits = ResponseLimits()) {
        self.hasNoBody = hasNoBody
        self.limits = limits
    }

    /// Takes the next bytes received and reads as far as they go: the whole response once it is
    /// complete, `nil` while more is needed. Throws as soon as a limit is passed or the bytes
    /// cannot be HTTP/1.1.
    public mutating func consume(_ bytes: some Collection<UInt8>) throws(HTTP1Message.ParseError) -> HTTPResponse? {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
        return try advance()
    }

    /// The peer closed the connection: the response if a close-delimited body ends here
    /// (RFC 9112 §6.3 rule 8), otherwise ``HTTP1Message/ParseError/incomplete``.
    public mutating func finish() throws(HTTP1Message.ParseError) -> HTTPResponse {
        if let response = try advance() { return response }
        guard case .untilClose = state, var response = head else { throw .incomplete }
        state = .complete
        response.body = body
        return response
    }

    private mutating func advance() throws(HTTP1Message.ParseError) -> HTTPResponse? {
        while true {
            switch state {
            case .complete:
                guard var response = head else { throw .malformed("no head") }
                response.body = body
                return response
            case .head:
                guard let headEnd = try nextDelimiter([13, 10, 13, 10], limit: limits.headBytes) else { return nil }
                try readHead(buffer[start..<headEnd])
                start = headEnd + 4
            case .fixedLength(let remaining):
                let taken = take(upTo: remaining)
                guard taken > 0 || remaining == 0 else { return nil }
                state = remaining == taken ? .complete : .fixedLength(remaining: remaining - taken)
            case .untilClose:
                guard body.count + (buffer.count - start) <= limits.bodyBytes else { throw .tooLarge }
                _ = take(upTo: buffer.count - start)
                return nil
            case .chunkLine:
                // RFC 9112 §7.1: chunk-size in hex, then extensions after ';' (ignored).
                guard let lineEnd = try nextDelimiter([13, 10], limit: limits.chunkLineBytes) else { return nil }
                let sizeField = buffer[start..<lineEnd].prefix { $0 != 0x3B }
                guard !sizeField.isEmpty, sizeField.count <= 8, sizeField.allSatisfy(HTTP1Message.isHexDigit),
                      let size = Int(String(decoding: sizeField, as: UTF8.self), radix: 16) else {
                    throw .malformed("chunk size")
                }
                start = lineEnd + 2
                if size == 0 {
                    state = .trailer(used: 0)
                } else {
                    guard body.count + size <= limits.bodyBytes else { throw .tooLarge }
                    state = .chunkData(remaining: size)
                }
            case .chunkData(let remaining):
                let taken = take(upTo: remaining)
                guard taken > 0 else { return nil }
                state = remaining == taken ? .chunkDataEnd : .chunkData(remaining: remaining - taken)
            case .chunkDataEnd:
                guard buffer.count - start >= 2 else { return nil }
                guard buffer[start] == 13, buffer[start + 1] == 10 else { throw .malformed("chunk end") }
                start += 2
                state = .chunkLine
            case .trailer(let used):
                // RFC 9112 §7.1.2: trailer fields (skipped), then an empty line; the whole
                // section counts against the head limit.
                guard let lineEnd = try nextDelimiter([13, 10], limit: limits.headBytes - used) else { return nil }
                let length = lineEnd - start
                start = lineEnd + 2
                state = length == 0 ? .complete : .trailer(used: used + length + 2)
            }
        }
    }

    /// Parses the status line and fields and picks the body's framing (RFC 9112 §6.3).
    private mutating func readHead(_ bytes: ArraySlice<UInt8>) throws(HTTP1Message.ParseError) {
        let lines = HTTP1Message.split(bytes)
        guard let statusLine = lines.first else { throw .malformed("no status line") }
        let status = try HTTP1Message.parseStatusLine(statusLine)
        var headers: [HTTPHeader] = []
        for line in lines.dropFirst() { headers.append(try HTTP1Message.parseField(line)) }
        // RFC 9110 §15.2: an interim 1xx answer is followed by the final one; skip a few. 101
        // (Switching Protocols) was never asked for, so it is malformed here.
        if status == 101 { throw .malformed("an unrequested protocol switch (101)") }
        if (100..<200).contains(status) {
            interimAnswers += 1
            guard interimAnswers <= 8 else { throw .malformed("more than 8 interim answers") }
            return
        }
        let response = HTTPResponse(status: status, headers: headers)
        head = response
        if hasNoBody || status == 204 || status == 304 {
            state = .complete
        } else if let coding = response.header("Transfer-Encoding") {
            guard coding.lowercased().split(separator: ",").last?.trimmingCharacters() == "chunked" else {
                throw .malformed("transfer coding \(coding)")
            }
            state = .chunkLine
        } else if let lengthText = response.header("Content-Length") {
            let digits = lengthText.trimmingCharacters()
            guard !digits.isEmpty, digits.utf8.count <= 12, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let length = Int(digits) else {
                throw .malformed("Content-Length \(lengthText)")
            }
            guard length <= limits.bodyBytes else { throw .tooLarge }
            body.reserveCapacity(length)  // one allocation, not a doubling past the limit
            state = .fixedLength(remaining: length)
        } else {
            state = .untilClose
        }
    }

    /// Moves up to `count` received bytes into the body; how many it moved.
    private mutating func take(upTo count: Int) -> Int {
        let taken = min(count, buffer.count - start)
        body.append(contentsOf: buffer[start..<(start + taken)])
        start += taken
        return taken
    }

    /// The index of `delimiter` after `start`, searching only bytes not searched before; nil
    /// when it has not arrived yet. Throws ``HTTP1Message/ParseError/tooLarge`` once more than
    /// `limit` bytes precede it.
    private mutating func nextDelimiter(_ delimiter: [UInt8], limit: Int) throws(HTTP1Message.ParseError) -> Int? {
        let from = start + max(0, scanned - (delimiter.count - 1))
        if buffer.count - from >= delimiter.count {
            for index in from...(buffer.count - delimiter.count) where buffer[index] == delimiter[0] {
                if buffer[index..<(index + delimiter.count)].elementsEqual(delimiter) {
                    guard index - start <= limit else { throw .tooLarge }
                    scanned = 0
                    return index
                }
            }
        }
        scanned = buffer.count - start
        // Without its delimiter, the line or head is at least `scanned - delimiter.count + 1` long.
        guard scanned - (delimiter.count - 1) <= limit else { throw .tooLarge }
        return nil
    }
}
