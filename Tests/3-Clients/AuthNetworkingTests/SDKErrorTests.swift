// The one error type of the SDKs (docs/design.md §1 "Layer 3 has one shape"): `SDKError<Domain>`
// holds the shape once; each client is a domain with its own codes and name. Two domains with a
// code of the same name give two unrelated types; an error is equal to another by code; the
// default text and server code come from the shared shape, and a domain may replace them.

import AuthNetworking
import ProtocolSupport
import SaltEdgeSDK
import Testing

/// A domain that keeps every default.
private enum PlainDomain: ClientErrorDomain {}

/// A domain that carries a flag, compares and prints it, and reads its server code from it.
private enum FlaggedDomain: ClientErrorDomain {
    typealias Extra = Bool
    static var noExtra: Bool { false }
    static func serverCode(of error: SDKError<Self>) -> String? { error.extra ? "FLAGGED" : nil }
    static func areEqual(_ a: SDKError<Self>, _ b: SDKError<Self>) -> Bool { a.code == b.code && a.extra == b.extra }
    static func description(of error: SDKError<Self>) -> String { "\(error.code)\(error.extra ? " [flagged]" : "")" }
}

extension ClientErrorCodeOf where Client == SDKError<PlainDomain> {
    fileprivate static var server: Self { Self(rawValue: "server") }
}

extension ClientErrorCodeOf where Client == SDKError<FlaggedDomain> {
    fileprivate static var server: Self { Self(rawValue: "server") }
}

private func plain(_ code: SDKError<PlainDomain>.Code, _ message: String, cause: (any Error & Sendable)? = nil,
                   httpStatus: Int? = nil) -> SDKError<PlainDomain> {
    SDKError(code, message, cause: cause, httpStatus: httpStatus, extra: (), file: #fileID, line: #line)
}

@Suite struct SDKErrorTests {
    @Test func domainsWithTheSameCodeNameAreDifferentTypes() {
        let errors: [any Error] = [plain(.server, "a"), SaltEdgeClientError(.server, "b"),
                                   SDKError<FlaggedDomain>(.server, "c", cause: nil, httpStatus: nil, extra: false, file: #fileID, line: #line)]
        #expect(errors.map { $0 is SDKError<PlainDomain> } == [true, false, false])
        #expect(errors.map { $0 is SaltEdgeClientError } == [false, true, false])
        #expect(errors.map { $0 is SDKError<FlaggedDomain> } == [false, false, true])
        #expect(SaltEdgeClientError.self == SDKError<SaltEdgeErrorDomain>.self)
    }

    @Test func errorsAreEqualByCodeWhateverTheirMessageCauseAndPlace() {
        let first = plain(.server, "one", httpStatus: 500)
        let second = SDKError<PlainDomain>(.server, "two", cause: ProtocolError(.serverError, "x"), httpStatus: nil, extra: (),
                                           file: "Elsewhere.swift", line: 7)
        #expect(first == second)
        #expect(first != plain(.transport, "one", httpStatus: 500))
        #expect(first.code == .server && second.file == "Elsewhere.swift" && second.line == 7)
    }

    @Test func theDefaultTextAndServerCodeComeFromTheSharedShape() {
        let cause = ProtocolError(.serverError, "ERR")
        let answered = plain(.server, "refused", cause: cause, httpStatus: 401)
        #expect(answered.serverCode == "serverError")
        #expect(answered.protocolError?.code == .serverError)
        #expect(answered.description == "server: refused [HTTP 401] [serverError] (\(cause))")
        let unanswered = plain(.transport, "no answer", cause: cause)
        #expect(unanswered.serverCode == nil)   // a server code only when a server answered
        #expect(answered.description == answered.standardDescription)
    }

    @Test func aDomainMayCompareAndPrintWhatItCarries() {
        func flagged(_ flag: Bool, _ message: String) -> SDKError<FlaggedDomain> {
            SDKError(.server, message, cause: nil, httpStatus: 410, extra: flag, file: #fileID, line: #line)
        }
        #expect(flagged(true, "a") == flagged(true, "b"))
        #expect(flagged(true, "a") != flagged(false, "a"))
        #expect(flagged(true, "a").serverCode == "FLAGGED" && flagged(false, "a").serverCode == nil)
        #expect(flagged(true, "a").description == "server [flagged]")
        #expect(flagged(true, "a").standardDescription == "server: a [HTTP 410] [FLAGGED]")
    }

    /// The shared mapping of a call without an answer: every kind of transport failure has one
    /// code, a refused URL keeps its refusal as the message and in the cause, and the domain's
    /// ``ClientErrorDomain/noExtra`` fills what it carries.
    @Test func aCallWithoutAnAnswerHasTheSharedCode() {
        let kinds: [(TransportError.Kind, String)] = [(.timedOut, "transport"), (.unreachable, "transport"), (.tls, "transport"),
                                                      (.cancelled, "cancelled"), (.badResponse, "transport"), (.invalidRequest, "transport"),
                                                      (.redirectRefused, "transport"), (.responseTooLarge, "transport"), (.other, "transport")]
        for (kind, code) in kinds {
            let error = SDKError<PlainDomain>(noAnswer: TransportError(kind), "no answer")
            #expect(error.code.rawValue == code && error.message == "no answer" && error.transportError?.kind == kind)
        }
        let refused = SDKError<FlaggedDomain>(refusing: "http://127.0.0.1:8080/pa?token=x")
        #expect(refused.code.rawValue == "urlRefused" && refused.extra == false)
        #expect(refused.message == "http://127.0.0.1:8080/pa is refused by the URL policy (https to a named host only)")
        #expect(refused.transportError?.urlRefusal == URLPolicy.Refusal(of: "http://127.0.0.1:8080/pa"))
        #expect(refused.transportError?.urlRefusal?.loopbackOptOutWouldAccept == true)
        let remote = SDKError<PlainDomain>(refusing: "http://pa.example.com/")
        #expect(remote.transportError?.urlRefusal?.loopbackOptOutWouldAccept == false)
        let protocolRefusal = ProtocolError(refusing: "http://sca.example.com", in: "sca_service_url")
        #expect(SDKError<PlainDomain>(urlRefusalIn: protocolRefusal)?.code.rawValue == "urlRefused")
        #expect(SDKError<PlainDomain>(urlRefusalIn: ProtocolError(.malformedInput, "x")) == nil)
    }
}
