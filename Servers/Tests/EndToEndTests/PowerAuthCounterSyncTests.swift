// docs/protocols/powerauth.md §6.4 against mfa-server over 127.0.0.1: a client whose counter ran ahead of the
// server's (signatures computed locally and never sent) is brought back in step by the
// possession-only synchronisation signature that `fetchActivationStatus` sends, and a client
// past the look-ahead window is reported deadlocked and refuses to sign before anything reaches
// the server — which therefore counts no failed attempt.

import Foundation
import MFAServerCore
import PowerAuth
import PowerAuthSDK
import Testing

extension EndToEnd {
    @Suite struct PowerAuthCounterSyncTests {
        /// Advances the client's counter `steps` times without telling the server (public API only:
        /// a computed header that is never sent).
        static func runAhead(_ activated: ActivatedClient, by steps: Int) async throws {
            for _ in 0..<steps {
                _ = try await activated.client.requestSignature(method: "POST", uriID: "/never-sent", body: [], factors: .possession,
                                                                authentication: activated.authentication)
            }
        }

        @Test func twelveAheadIsSynchronisedByThePossessionOnlySignature() async throws {
            try await withMFAServer { url, powerAuth in
                let activated = try await ActivatedClient(url: url, instanceID: "ahead12")
                defer { activated.discard() }
                try await Self.runAhead(activated, by: 12)
                let status = try await activated.client.fetchActivationStatus(possessionUnlockKey: activated.possession)
                #expect(status.counterSynchronization == .signatureRecommended && !status.isDeadlocked)
                // The synchronisation signature moved the server forward: in step now, nothing failed.
                let after = try await activated.client.fetchActivationStatus(possessionUnlockKey: activated.possession)
                #expect(after.counterSynchronization == .synchronized)
                #expect(after.failedAttempts == 0)
                #expect(await powerAuth.activation(activated.activationID)?.failedAttempts == 0)
                // And a real signature is accepted by the server's back end.
                let body = Array(#"{"after":"sync"}"#.utf8)
                let header = try await activated.client.requestSignature(method: "POST", uriID: "/payment", body: body, factors: .possessionKnowledge,
                                                                         authentication: activated.authentication)
                let verdict = try await integration(url, "integration/powerauth/signature/verify", [
                    "activationId": activated.activationID, "method": "POST", "uriId": "/payment",
                    "body": Data(body).base64EncodedString(), "header": header.value,
                ])
                #expect(verdict["valid"] as? Bool == true, "\(verdict)")
            }
        }

        @Test func twentyOneAheadIsADeadlockRefusedLocally() async throws {
            try await withMFAServer { url, powerAuth in
                let activated = try await ActivatedClient(url: url, instanceID: "ahead21")
                defer { activated.discard() }
                try await Self.runAhead(activated, by: 21)
                let status = try await activated.client.fetchActivationStatus(possessionUnlockKey: activated.possession)
                #expect(status.isDeadlocked && status.counterSynchronization == .deadlock)
                do {
                    _ = try await activated.client.requestSignature(method: "POST", uriID: "/payment", body: [], factors: .possessionKnowledge,
                                                                    authentication: activated.authentication)
                    Issue.record("a deadlocked activation signed")
                } catch let error as PowerAuthSDKError {
                    #expect(error.code == .counterDeadlock)
                } catch {
                    Issue.record("not a PowerAuthSDKError: \(error)")
                }
                #expect(await powerAuth.activation(activated.activationID)?.failedAttempts == 0)
            }
        }
    }
}
