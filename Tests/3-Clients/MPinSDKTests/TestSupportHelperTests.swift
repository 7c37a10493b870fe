// The shared test helpers must be able to fail: `expectError` records an Issue for no error,
// another type and another code, and passes only the matching error back; a temporary store
// lives on the real file system and is gone after `withTemporaryStore`; `InProcessTransport`
// keeps every request and passes its handler's answer or error through. These run here because
// this target already links every module the helpers speak (an SDK error, ProtocolError,
// SecureStoreError).

import AuthNetworking
import CryptoPrimitives
import Foundation
import MPinSDK
import ProtocolSupport
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct TestSupportHelperTests {
    struct Unrelated: Error {}

    @Test func expectErrorPassesTheMatchingErrorBack() async {
        let error = expectError(code: MPinError.Code.invalidInput) { throw MPinError(.invalidInput, "empty identity", httpStatus: 400) }
        #expect(error?.httpStatus == 400)
        let typed = await expectError(MPinError.self, code: .transport) { () async throws -> Int in throw MPinError(.transport, "down") }
        #expect(typed?.message == "down")
        #expect(expectError(code: .malformedInput) { throw ProtocolError(.malformedInput, "x") }?.code == .malformedInput)
        #expect(expectError(kind: .rolledBack) { throw SecureStoreError(.rolledBack, "older") }?.kind == .rolledBack)
    }

    @Test func expectErrorRecordsNoErrorAnotherTypeAndAnotherCode() async {
        withKnownIssue("nothing thrown") {
            #expect(expectError(code: MPinError.Code.invalidInput) { 1 } == nil)
        }
        withKnownIssue("another type") {
            #expect(expectError(code: MPinError.Code.invalidInput) { throw Unrelated() } == nil)
        }
        withKnownIssue("another code") {
            #expect(expectError(code: MPinError.Code.invalidInput) { throw MPinError(.transport, "") } == nil)
        }
        await withKnownIssue("another code, async") {
            #expect(await expectError(MPinError.self, code: .invalidInput) { () async throws in throw MPinError(.server, "") } == nil)
        }
        withKnownIssue("another protocol code") {
            #expect(expectError(code: .malformedInput) { throw ProtocolError(.invalidSignature, "") } == nil)
        }
        withKnownIssue("another store kind") {
            #expect(expectError(kind: .corrupt) { throw SecureStoreError(.io, "", errno: 5) } == nil)
        }
    }

    @Test func aTemporaryStoreIsOnDiskAndRemovedAfterwards() throws {
        let directory = try withTemporaryStore { store in
            try store.write(SecretBytes([1, 2, 3]), to: "record")
            #expect(FileManager.default.fileExists(atPath: store.directory + "/record"))
            #expect(try store.read("record")?.unsafeExposedBytes == [1, 2, 3])
            return store.directory
        }
        #expect(!FileManager.default.fileExists(atPath: directory))
        let kept = try makeTemporaryStore()
        #expect(FileManager.default.fileExists(atPath: kept.directory))
        #expect(try makeTemporaryStore().directory != kept.directory)
    }

    @Test func theInProcessTransportKeepsRequestsAndPassesAnswers() async throws {
        let transport = InProcessTransport(destination: "https://example.test") { request in
            if request.path == "/fail" { throw Unrelated() }
            return HTTPResponse(status: 204)
        }
        #expect(try await transport.send(HTTPRequest(method: .get, path: "/ok")).status == 204)
        await #expect(throws: TransportError(.other)) { try await transport.send(HTTPRequest(method: .post, path: "/fail")) }
        #expect(await transport.sent.map(\.path) == ["/ok", "/fail"])
        #expect(transport.destination == "https://example.test")
        await #expect(throws: TransportError(.unreachable)) { try await InProcessTransport().send(HTTPRequest(method: .get, path: "/")) }
    }
}
