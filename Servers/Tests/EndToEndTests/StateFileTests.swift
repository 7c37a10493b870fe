// mfa-server's `--state FILE`: an activation and a
// token made against one server process survive into a second one started from the same file —
// the next signature is accepted, the token still verifies — and the file is 0600. A file that
// does not decode stops the server instead of resetting it.

import CryptoPrimitives
import Foundation
import MFAServerCore
import PowerAuth
import PowerAuthSDK
import ProtocolSupport
import Testing

extension EndToEnd {
    @Suite struct StateFileTests {
        @Test func stateSurvivesARestart() async throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("mfa-state-\(UUID().uuidString).json").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            var kept: (ActivatedClient, String)?
            try await withMFAServer(try await PowerAuthStandIn(stateFile: file)) { url, _ in
                let activated = try await ActivatedClient(url: url, instanceID: "state")
                _ = try await activated.client.requestAccessToken(named: "read", authentication: activated.authentication)
                kept = (activated, try await activated.client.tokenHeader(named: "read").value)
            }
            let (activated, tokenHeader) = try #require(kept)
            defer { activated.discard() }
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

            // A second server from the file, on another port: the old client's store still points at
            // the first URL, so it talks to the new one through a client made for the new URL.
            try await withMFAServer(try await PowerAuthStandIn(stateFile: file)) { url, powerAuth in
                let server = try #require(await powerAuth.activation(activated.activationID))
                #expect(server.state == .active && server.counterIndex >= 1)
                let verdict = try await integration(url, "integration/powerauth/token/verify", ["header": tokenHeader])
                #expect(verdict["valid"] as? Bool == true)
                let body = Array(#"{"after":"restart"}"#.utf8)
                let header = try await activated.client.requestSignature(method: "POST", uriID: "/payment", body: body, factors: .possessionKnowledge,
                                                                         authentication: activated.authentication)
                let signed = try await integration(url, "integration/powerauth/signature/verify", [
                    "activationId": activated.activationID, "method": "POST", "uriId": "/payment",
                    "body": Data(body).base64EncodedString(), "header": header.value,
                ])
                #expect(signed["valid"] as? Bool == true && signed["failedAttempts"] as? Int == 0)
            }

            try Data("{\"application\":".utf8).write(to: URL(fileURLWithPath: file))
            await #expect(throws: (any Error).self) { _ = try await PowerAuthStandIn(stateFile: file) }
        }
    }
}
