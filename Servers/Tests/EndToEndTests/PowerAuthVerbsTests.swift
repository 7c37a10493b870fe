// Every PowerAuthClient verb over real HTTP on 127.0.0.1 against mfa-server, for each protocol
// version the server speaks: activate → status →
// signed POST and GET with 1, 2 and 3 factors → tokens → vault key and device signature →
// recovery data and confirmation → safe password change → biometry add/remove → ECIES in both
// scopes → user info → offline signature → server-signed data → remove. Each result is checked
// against the server's own records (its vault key, its device public key, its recovery code,
// its verdict on a signature), never against the client's output alone.

import CryptoPrimitives
import Foundation
import MFAServerCore
import PowerAuth
@_spi(Internals) import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SecureStore
import Testing

extension EndToEnd {
    @Suite struct PowerAuthVerbsTests {
        static let versions: [PowerAuth.ProtocolVersion] = [.v3_0, .v3_1, .v3_2, .v3_3]

        @Test(arguments: versions) func everyVerbOverLoopback(version: PowerAuth.ProtocolVersion) async throws {
            try await withMFAServer { url, powerAuth in
                let activated = try await ActivatedClient(url: url, instanceID: "verbs", version: version)
                defer { activated.discard() }
                let client = activated.client
                let id = activated.activationID
                #expect(await powerAuth.activation(id)?.version == version)

                // Status, with the server's custom object kept.
                let status = try await client.fetchActivationStatus(possessionUnlockKey: activated.possession)
                #expect(status.state == .active)
                #expect(status.customObject == .object([("server", .string("mfa-server"))]))

                try await Self.signatures(activated, url: url)
                try await Self.tokens(activated, url: url)
                try await Self.vault(activated, powerAuth: powerAuth)
                try await Self.recovery(activated, url: url, powerAuth: powerAuth)
                try await Self.passwordAndBiometry(activated, url: url)
                try await Self.encryption(activated, url: url)
                try await Self.offlineAndServerSigned(activated, powerAuth: powerAuth)

                #expect(try await client.fetchActivationStatus(possessionUnlockKey: activated.possession).failedAttempts == 0)
                try await client.removeActivation(authentication: activated.authentication)
                #expect(try await client.hasValidActivation() == false)
                #expect(await powerAuth.activation(id)?.state == .removed)
            }
        }

        /// Signed POST (possession, 2FA) and GET (query canonicalised by the SDK) verified by the
        /// server's back-end API; a request sent through the SDK's queue accepted by the server.
        static func signatures(_ activated: ActivatedClient, url: String) async throws {
            for (factors, name) in [(PowerAuth.SignatureFactors.possession, "1FA"), (.possessionKnowledge, "2FA")] {
                let body = Array(#"{"payment":"\#(name)"}"#.utf8)
                let header = try await activated.client.requestSignature(method: "POST", uriID: "/payment", body: body, factors: factors,
                                                                         authentication: activated.authentication)
                #expect(try await verify(url, activated, method: "POST", uriID: "/payment", body: body, header: header.value), "\(name)")
            }
            let query = [("to", "alice & bob"), ("amount", "10")]
            let get = try await activated.client.requestGetSignature(uriID: "/balance", query: query, factors: .possessionKnowledge,
                                                                     authentication: activated.authentication)
            // §7.2 canonical form, written out by hand: sorted by key, space → +, & → %26.
            #expect(try await verify(url, activated, method: "GET", uriID: "/balance", body: Array("amount=10&to=alice+%26+bob".utf8),
                                     header: get.value))
            let response = try await activated.client.sendSignedRequest(
                HTTPRequest(method: .post, path: "pa/v3/signature/validate", headers: [HTTPHeader("Content-Type", "application/json")],
                            body: Array("{}".utf8)), uriID: "/pa/signature/validate", factors: .possession, authentication: activated.authentication)
            #expect(response.status == 200)
        }

        static func tokens(_ activated: ActivatedClient, url: String) async throws {
            let client = activated.client
            let token = try await client.requestAccessToken(named: "balance", authentication: activated.authentication)
            #expect(try await client.requestAccessToken(named: "balance", authentication: activated.authentication).id == token.id)
            #expect(try await client.hasLocalToken(named: "balance"))
            let header = try await client.tokenHeader(named: "balance")
            #expect(header.name == "X-PowerAuth-Token")
            let verdict = try await integration(url, "integration/powerauth/token/verify", ["header": header.value])
            #expect(verdict["valid"] as? Bool == true && verdict["activationId"] as? String == activated.activationID)
            try await client.removeAccessToken(named: "balance", authentication: activated.authentication)
            #expect(try await client.hasLocalToken(named: "balance") == false)
            let after = try await integration(url, "integration/powerauth/token/verify", ["header": header.value])
            #expect(after["valid"] as? Bool == false)
            await #expect(throws: PowerAuthSDKError.self) { try await client.tokenHeader(named: "balance") }
        }

        /// The vault key derivation and the device signature checked with the server's records.
        static func vault(_ activated: ActivatedClient, powerAuth: PowerAuthStandIn) async throws {
            let client = activated.client
            let key = try await client.fetchEncryptionKey(authentication: activated.authentication, index: 7)
            let expected = try #require(await powerAuth.vaultEncryptionKey(activationID: activated.activationID, index: 7))
            #expect(key == expected)
            #expect(try await client.fetchEncryptionKey(authentication: activated.authentication, index: 8) != expected)

            let data = Array("contract #42".utf8)
            let der = try await client.signDataWithDevicePrivateKey(authentication: activated.authentication, data: data)
            let device = try #require(await powerAuth.activation(activated.activationID)?.devicePublicKey)
            let publicKey = try P256.Signing.PublicKey(x963Representation: device.x963Representation)
            #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: der), for: data))

            // Possession alone cannot open the vault, locally refused before any counter moves.
            await #expect(throws: PowerAuthSDKError.self) {
                try await client.fetchEncryptionKey(authentication: Authentication(possessionUnlockKey: activated.possession), index: 1)
            }
        }

        /// Recovery data equals the server's code and PUK; the activation's own code is already
        /// confirmed; a postcard is confirmed once, then reported as already confirmed.
        static func recovery(_ activated: ActivatedClient, url: String, powerAuth: PowerAuthStandIn) async throws {
            let client = activated.client
            #expect(try await client.hasActivationRecoveryData())
            let data = try #require(try await client.activationRecoveryData(authentication: activated.authentication))
            let server = try #require(await powerAuth.recoveryCode(of: activated.activationID))
            #expect(data.recoveryCode == server.code && data.puk == server.puks[0])
            #expect(try await client.confirmRecoveryCode(data.recoveryCode, authentication: activated.authentication) == true)

            let postcard = try await integration(url, "integration/powerauth/recovery/postcard", ["activationId": activated.activationID])
            let code = try #require(postcard["recoveryCode"] as? String)
            #expect(try await client.confirmRecoveryCode("R:" + code, authentication: activated.authentication) == false)
            #expect(try await client.confirmRecoveryCode(code, authentication: activated.authentication) == true)
        }

        /// A wrong old password is refused by the server and leaves the store as it was; the safe
        /// change works and the new password signs; the biometry factor is added, signs 3FA, and goes.
        static func passwordAndBiometry(_ activated: ActivatedClient, url: String) async throws {
            let client = activated.client
            let possession = activated.possession
            let original = try #require(try ActivationStore(store: activated.store, instanceID: "verbs").activation())
            do {
                try await client.changePassword(from: SecretBytes("0000".utf8), to: SecretBytes("9999".utf8), possessionUnlockKey: possession)
                Issue.record("a wrong old password was accepted")
            } catch {
                #expect(error.code == .authenticationFailed && error.httpStatus == 401, "\(error)")
            }
            // The refused attempt advanced only the counter; the locked keys are unchanged.
            let afterRefusal = try #require(try ActivationStore(store: activated.store, instanceID: "verbs").activation())
            #expect(afterRefusal.lockedKnowledgeKey == original.lockedKnowledgeKey && afterRefusal.passwordSalt == original.passwordSalt)

            try await client.changePassword(from: SecretBytes("1234".utf8), to: SecretBytes("5678".utf8), possessionUnlockKey: possession)
            try await client.validatePassword(SecretBytes("5678".utf8), possessionUnlockKey: possession)
            let newPassword = Authentication(possessionUnlockKey: possession, password: SecretBytes("5678".utf8))
            let changed = Array(#"{"password":"changed"}"#.utf8)
            let signedWithNew = try await client.requestSignature(method: "POST", uriID: "/payment", body: changed, factors: .possessionKnowledge,
                                                                  authentication: newPassword)
            #expect(try await verify(url, activated, method: "POST", uriID: "/payment", body: changed, header: signedWithNew.value))
            try await client.changePassword(from: SecretBytes("5678".utf8), to: SecretBytes("1234".utf8), possessionUnlockKey: possession)

            var random = SystemRandomSource()
            let biometry = SymmetricKey(data: try random.bytes(count: 16))
            #expect(try await client.hasBiometryFactor() == false)
            try await client.addBiometryFactor(authentication: activated.authentication, biometryUnlockKey: biometry)
            #expect(try await client.hasBiometryFactor())
            let threeFactors = Authentication(possessionUnlockKey: possession, password: SecretBytes("1234".utf8), biometryUnlockKey: biometry)
            let body = Array(#"{"payment":"3FA"}"#.utf8)
            let header = try await client.requestSignature(method: "POST", uriID: "/payment", body: body, factors: .possessionKnowledgeBiometry,
                                                           authentication: threeFactors)
            #expect(try await verify(url, activated, method: "POST", uriID: "/payment", body: body, header: header.value))
            try await client.removeBiometryFactor()
            #expect(try await client.hasBiometryFactor() == false)
        }

        /// ECIES in application and activation scope through the echo endpoints, a signed and
        /// encrypted call, and the user info.
        static func encryption(_ activated: ActivatedClient, url: String) async throws {
            let client = activated.client
            let message = Array(#"{"hello":"application"}"#.utf8)
            #expect(try await client.sendEncrypted(message, path: "integration/powerauth/echo/application", activationScope: nil) == message)
            let mine = Array(#"{"hello":"activation"}"#.utf8)
            #expect(try await client.sendEncrypted(mine, path: "integration/powerauth/echo/activation", activationScope: activated.possession) == mine)
            let signed = Array(#"{"hello":"signed"}"#.utf8)
            #expect(try await client.sendSignedEncrypted(signed, path: "integration/powerauth/echo/signed", uriID: "/echo/signed",
                                                         authentication: activated.authentication) == signed)
            let info = try await client.fetchUserInfo(possessionUnlockKey: activated.possession)
            #expect(info == .object([("name", .string("mfa-server user")), ("sub", .string(activated.activationID))]))
        }

        static func offlineAndServerSigned(_ activated: ActivatedClient, powerAuth: PowerAuthStandIn) async throws {
            let client = activated.client
            let nonce = Base64.encode(Array(repeating: UInt8(0x5A), count: 16))
            let data = Array("A1*M100CZK*ISUM".utf8)
            let offline = try await client.offlineSignature(body: data, nonce: nonce, authentication: activated.authentication)
            let verdict = await powerAuth.verifyOffline(activationID: activated.activationID, signature: offline, factors: .possessionKnowledge,
                                                        nonce: nonce, data: data)
            guard case .valid = verdict else { Issue.record("offline signature \(offline): \(verdict)"); return }
            // The activation code's signature is the master key's over the code.
            #expect(try await client.verifyServerSignedData(Array(activated.activationCode.code.utf8), signature: activated.activationCode.signature,
                                                            masterKey: true))
            #expect(try await client.verifyServerSignedData(Array("other".utf8), signature: activated.activationCode.signature, masterKey: true) == false)
        }

        static func verify(_ url: String, _ activated: ActivatedClient, method: String, uriID: String, body: [UInt8], header: String) async throws -> Bool {
            let verdict = try await integration(url, "integration/powerauth/signature/verify", [
                "activationId": activated.activationID, "method": method, "uriId": uriID, "body": Data(body).base64EncodedString(), "header": header,
            ])
            return verdict["valid"] as? Bool == true
        }
    }
}
