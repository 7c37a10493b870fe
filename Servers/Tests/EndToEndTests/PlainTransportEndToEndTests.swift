// PowerAuthClient over PlainHTTPTransport (plain HTTP/1.1 on a Glibc socket, no Foundation) on
// 127.0.0.1 against mfa-server, started in process: the transport the static `mfa` sends with
// (docs/static-and-embedded.md). Activation, status and a 2FA signature the server verifies, then the
// server gone: a typed error.

import AuthNetworking
import Foundation
import PlainHTTPTransport
import PowerAuth
import PowerAuthSDK
import ProtocolSupport
import Testing

extension EndToEnd {
    @Suite struct PlainTransportEndToEndTests {
        @Test func activateStatusAndSignOverPlainHTTP() async throws {
            var baseURL = ""
            try await withMFAServer { url, _ in
                baseURL = url
                let transport = PlainHTTPTransport(configuration: .init(baseURL: url), logger: .disabled)
                let activated = try await ActivatedClient(url: url, instanceID: "plain", sending: transport)
                defer { activated.discard() }
                let client = activated.client
                #expect(try await client.fetchActivationStatus(possessionUnlockKey: activated.possession).state == .active)
                let body = Array(#"{"payment":"plain"}"#.utf8)
                let header = try await client.requestSignature(method: "POST", uriID: "/payment", body: body, factors: .possessionKnowledge,
                                                               authentication: activated.authentication)
                let verdict = try await integration(url, "integration/powerauth/signature/verify", [
                    "activationId": activated.activationID, "method": "POST", "uriId": "/payment",
                    "body": Data(body).base64EncodedString(), "header": header.value,
                ])
                #expect(verdict["valid"] as? Bool == true, "\(verdict)")
            }
            var gone = PlainHTTPTransport.Configuration(baseURL: baseURL)
            gone.timeout = 2
            await #expect(throws: TransportError(.unreachable)) {
                try await PlainHTTPTransport(configuration: gone, logger: .disabled).send(HTTPRequest(method: .get, path: "pa/v3/activation/status"))
            }
        }
    }
}
