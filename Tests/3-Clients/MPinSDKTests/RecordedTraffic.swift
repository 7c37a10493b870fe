// The recorded MIRACL platform traffic (../shared/vectors/mpin/mfa-sdk-core-recorded, real
// exchanges of the 2016–2017 SDK cores with MIRACL servers) as a replaying transport, and the
// comparison of what our client sent with what the original client sent.

import AuthNetworking
import CryptoPrimitives
import Foundation
import MPinSDK
import MPinPlatform
import ProtocolSupport
import Testing
import TestSupport

/// One recorded exchange.
struct RecordedExchange: Decodable {
    struct Request: Decodable { let method: String; let url: String; let data: String; let context: String }
    struct Response: Decodable { let httpStatus: Int; let headers: [String: String]; let data: String }
    let request: Request
    let response: Response
}

/// A recorded file played back through ReplayTransport, with some exchanges left out (each with
/// the reason our client does not send it).
struct RecordedReplay {
    let entries: [RecordedExchange]
    let unusable: [Int: String]
    let replay: ReplayTransport
    /// The indices of the exchanges played, in order.
    let played: [Int]

    init(file: String, unusable: [Int: String]) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: SharedVectors.path("mpin/mfa-sdk-core-recorded/" + file)))
        let entries = try JSONDecoder().decode([RecordedExchange].self, from: data)
        let played = entries.indices.filter { unusable[$0] == nil }
        self.entries = entries
        self.unusable = unusable
        self.played = played
        replay = ReplayTransport(played.map { index in
            let entry = entries[index]
            let key = Self.key(entry.request.url)
            guard entry.response.httpStatus != 0 else {
                return ReplayTransport.Exchange(HTTPMethod(rawValue: entry.request.method), key, failure: TransportError(.unreachable, underlying: "recorded: host not found"))
            }
            let headers = entry.response.headers.map { HTTPHeader($0.key, $0.value) }
            return ReplayTransport.Exchange(HTTPMethod(rawValue: entry.request.method), key,
                                            response: HTTPResponse(status: entry.response.httpStatus, headers: headers, body: Array(entry.response.data.utf8)))
        })
    }

    /// `origin/path` of a URL: what the routed transport puts in the path it hands the replay.
    static func key(_ url: String) -> String {
        guard let location = MPinPlatform.Location(url) else { return url }
        return location.origin + "/" + location.path
    }

    /// A transport factory routing every origin into the one replay.
    var transport: HTTPTransportFactory {
        let replay = replay
        return .perBaseURL { origin in Routed(origin: origin, replay: replay) }
    }

    struct Routed: HTTPTransport {
        let origin: String
        let replay: ReplayTransport
        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            var routed = request
            routed.path = origin + "/" + request.path
            return try await replay.send(routed)
        }
    }

    /// Checks that the requests sent since `from` are exactly the recorded `indices`: method,
    /// URL with its decoded query in order, and JSON bodies with the same member names and the
    /// same values — except `U`, `UT` and `V`, which depend on fresh randomness and are checked
    /// to be BN254CX points of 65 bytes. `authenticateMembers` limits the comparison of
    /// `mpinResponse` to `authOTT` (the 2016 core echoed the whole pass-2 answer there).
    /// `unrecorded` requests may follow the recorded ones: the recording stopped while our
    /// client went on (each such place is named in the test).
    func expectSent(_ indices: [Int], from start: Int, unrecorded: Int = 0, echoedMPinResponse: Bool = false,
                    sourceLocation: SourceLocation = #_sourceLocation) async -> Int {
        let sent = await replay.sent
        let new = Array(sent.dropFirst(start))
        #expect(new.count == indices.count + unrecorded, "sent \(new.count) requests, recorded \(indices.count) (\(indices))",
                sourceLocation: sourceLocation)
        for (request, index) in zip(new, indices) {
            let recorded = entries[index].request
            #expect(request.method.rawValue == recorded.method, "#\(index) method", sourceLocation: sourceLocation)
            let recordedLocation = MPinPlatform.Location(recorded.url)
            #expect(request.path == Self.key(recorded.url), "#\(index) URL", sourceLocation: sourceLocation)
            // Compared as sent: a secret value (regOTT, which must be one) by its bytes.
            let sentQuery = request.query.map { item in item.name + "=" + item.withValueBytes { String(decoding: $0, as: UTF8.self) } }
            let recordedQuery = (recordedLocation?.query ?? []).map { $0.name + "=" + $0.value }
            #expect(sentQuery == recordedQuery, "#\(index) query \(sentQuery) vs \(recordedQuery)", sourceLocation: sourceLocation)
            #expect(request.query.allSatisfy { $0.name != "regOTT" || $0.secret != nil }, "#\(index) regOTT in clear", sourceLocation: sourceLocation)
            compareBodies(request.body, recorded.data, index: index, echoed: echoedMPinResponse, sourceLocation: sourceLocation)
        }
        return sent.count
    }

    private func compareBodies(_ body: [UInt8]?, _ recorded: String, index: Int, echoed: Bool, sourceLocation: SourceLocation) {
        guard !recorded.isEmpty else {
            #expect(body == nil, "#\(index): a body was sent where none was recorded", sourceLocation: sourceLocation)
            return
        }
        guard let body, let ours = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let theirs = try? JSONSerialization.jsonObject(with: Data(recorded.utf8)) as? [String: Any] else {
            Issue.record("#\(index): bodies are not both JSON objects", sourceLocation: sourceLocation)
            return
        }
        compare(ours, theirs, index: index, echoed: echoed, sourceLocation: sourceLocation)
    }

    private func compare(_ ours: [String: Any], _ theirs: [String: Any], index: Int, echoed: Bool, sourceLocation: SourceLocation) {
        #expect(Set(ours.keys).subtracting(echoed ? ["authzRequest"] : []) == Set(theirs.keys), "#\(index) members \(ours.keys.sorted()) vs \(theirs.keys.sorted())", sourceLocation: sourceLocation)
        for (name, value) in theirs {
            guard let mine = ours[name] else { continue }
            switch name {
            case "U" where true, "V" where true, "UT" where !"\(value)".isEmpty:
                let hex = (mine as? String) ?? ""
                let point = try? BN254CX.G1(encoded: Hex.decode(hex))
                #expect(hex.count == 130 && point != nil, "#\(index) \(name) is not a 65-byte BN254CX point", sourceLocation: sourceLocation)
            case "mpinResponse":
                guard let a = mine as? [String: Any], let b = value as? [String: Any] else {
                    Issue.record("#\(index) mpinResponse is not an object", sourceLocation: sourceLocation)
                    continue
                }
                if echoed {
                    #expect("\(a["authOTT"] ?? "")" == "\(b["authOTT"] ?? "")", "#\(index) authOTT", sourceLocation: sourceLocation)
                } else {
                    compare(a, b, index: index, echoed: false, sourceLocation: sourceLocation)
                }
            default:
                #expect(String(describing: mine) == String(describing: value), "#\(index) \(name): \(mine) vs \(value)", sourceLocation: sourceLocation)
            }
        }
    }
}
