// Every family's `mfa` driven as a subprocess against mfa-server over 127.0.0.1 with its store
// keyed in a PKCS #11 token (docs/hardware-keys.md), on each token there is: a throw-away SoftHSM2
// token, and the swtpm TPM when SWIFTMFA_TPM2_PKCS11_URI names one (skipped, and said so, otherwise).
// The matrix: PowerAuth configure --key-provider → activate → sign (the server accepts it) →
// status; M-Pin register → authenticate; Salt Edge connect → confirm; CM register → approve.
// The faults: (a) the store copied to a second home with a fresh token opens nowhere, for every
// family, and nothing reaches the server; (b) a wrong PIN is refused and spends no counter;
// (c) an unplugged token is refused, nothing reaches the server, and after plugging it back every
// family works; (d) `mfa powerauth sign` killed with SIGKILL while signing costs no failed
// attempt: the next signature is accepted (the counter is written ahead of the header).

import Foundation
import MFAServerCore
import ProtocolSupport
import Testing
import URLSessionTransport

extension EndToEnd {
    @Suite(.serialized) struct HardwareKeyMatrixTests {
        @Test(.enabled(if: HardwareToken.softHSMInstalled, "SoftHSM2 is not installed (apt-get install -y softhsm2): the SoftHSM2 half is SKIPPED"))
        func softHSM2() async throws {
            let token = try HardwareToken.softHSM2()
            defer { token.destroy() }
            try await Self.matrix(on: token)
        }

        @Test(.enabled(if: HardwareToken.tpmURI != nil,
                       "SWIFTMFA_TPM2_PKCS11_URI is not set (eval \"$(HardwareKeys/swtpm-token create DIR)\"): the TPM half is SKIPPED, not passed"))
        func tpm2() async throws {
            let token = try HardwareToken.tpm2()
            defer { token.destroy() }
            try await Self.matrix(on: token)
        }

        /// One row of the report: a cell's name and whether it held.
        final class Report: @unchecked Sendable {
            let token: String
            var cells: [(String, Bool)] = []
            init(_ token: String) { self.token = token }

            func cell(_ name: String, _ held: Bool, _ detail: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
                cells.append((name, held))
                #expect(held, "\(token) \(name): \(detail())", sourceLocation: sourceLocation)
            }

            func print() {
                Swift.print(cells.map { "hardware-key matrix [\(token)] \($0.0): \($0.1 ? "PASS" : "FAIL")" }.joined(separator: "\n"))
            }
        }

        static let user = "alice@example.com"

        static func matrix(on token: HardwareToken) async throws {
            let home = try HardwareToken.temporaryDirectory("hwk-home")
            defer { try? FileManager.default.removeItem(atPath: home) }
            let store = home + "/store"
            let report = Report(token.name)
            defer { report.print() }
            let (powerAuth, mpin) = (try PowerAuthStandIn(), try MPinStandIn())
            let (saltEdge, cm) = (try SaltEdgeStandIn(providerKey: TestKeys.saltEdgeProvider), try CMStandIn(listKey: TestKeys.cmList))
            try await withRunning({ try MFAServer.application(powerAuth: powerAuth, saltEdge: saltEdge, cm: cm, mpin: mpin, onRunning: $0) }) { url in
                let proxy = try CountingProxy(forwardingTo: try #require(url.split(separator: ":").last.flatMap { Int($0) }))
                defer { proxy.stop() }
                // Every link the stand-ins hand out names the forwarder, so every `mfa` request is counted.
                await saltEdge.setBaseURL(proxy.url)
                await mpin.setBaseURL(proxy.url)

                func mfa(_ arguments: [String], input: String = "", in directory: String = store, environment: [String: String]? = nil,
                         killAt: MFAChild.KillPoint? = nil) async throws -> ChildOutcome {
                    try await MFAChild.run(arguments + ["--store", directory, "--json"], input: input, environment: environment ?? token.environment,
                                           killAt: killAt)
                }

                // PowerAuth: the store chooses the token here, first.
                let configuration = try #require(try await integration(url, "integration/powerauth/application")["configurationString"] as? String)
                let code = try #require(try await integration(url, "integration/powerauth/activation/init")["activationCode"] as? String)
                var r = try await mfa(["powerauth", "configure", "--config-string", "-", "--base-url", proxy.url, "--allow-http-loopback",
                                       "--key-provider", token.uri], input: configuration + "\n")
                report.cell("powerauth configure --key-provider", r.status == 0, r.text)
                r = try await mfa(["powerauth", "activate", "--code", "-"], input: code + "\n1234\n")
                let activationID = try #require(r.object["activationId"] as? String, "\(r.text)")
                let activated = await powerAuth.activation(activationID)?.state == .active
                report.cell("powerauth activate", r.status == 0 && activated, r.text)
                func counter() async -> Int { await powerAuth.activation(activationID)?.counterIndex ?? -1 }
                func sign(killAt: MFAChild.KillPoint? = nil) async throws -> ChildOutcome {
                    try await mfa(["powerauth", "sign", "--method", "POST", "--uri-id", "/loop"], input: "1234\n", killAt: killAt)
                }
                /// Whether the server accepts the header `outcome` printed, with no failed attempt.
                func accepted(_ outcome: ChildOutcome) async throws -> Bool {
                    guard outcome.status == 0, let header = outcome.object["value"] as? String else { return false }
                    let verdict = try await CrashSafetyTests.verify(header, body: [], activationID: activationID, on: powerAuth)
                    return verdict.valid && verdict.failed == 0
                }
                var before = await counter()
                r = try await sign(killAt: .afterLoading(module: token.moduleFileName, delay: nil))
                let tokenPhase = try #require(r.tokenPhase, "mfa powerauth sign loaded \(token.moduleFileName)")
                var signed = try await accepted(r)
                var after = await counter()
                report.cell("powerauth sign (server accepts)", signed && after == before + 1, r.text)
                r = try await mfa(["powerauth", "status"])
                report.cell("powerauth status", r.status == 0 && r.object["state"] as? String == "active" && r.object["failedAttempts"] as? Int == 0, r.text)

                // M-Pin: configure (the same provider again changes nothing) → verify → confirm → register → authenticate.
                let session = try await MPinHarness.admin(url, "session")
                let (qr, accessCode) = (try #require(session["qrURL"] as? String), try #require(session["accessCode"] as? String))
                r = try await mfa(["mpin", "configure", "--qr", qr, "--client-id", "mfa-demo", "--allow-http-loopback", "--key-provider", token.uri])
                report.cell("mpin configure --key-provider (same provider)", r.status == 0, r.text)
                r = try await mfa(["mpin", "verify", Self.user, "--access-code", accessCode])
                let emailed = try #require(try await MPinHarness.admin(url, "verification-code", ["userId": Self.user])["code"] as? String, "\(r.text)")
                r = try await mfa(["mpin", "confirm", Self.user], input: emailed + "\n")
                let activationToken = try #require(r.object["activationToken"] as? String, "\(r.text)")
                r = try await mfa(["mpin", "register", Self.user, "--access-code", accessCode, "--with-code", "-"], input: activationToken + "\n123456\n")
                report.cell("mpin register", r.status == 0 && r.object["state"] as? String == "registered", r.text)
                r = try await mfa(["mpin", "authenticate", Self.user, "--qr", qr], input: "123456\n")
                let loggedIn = try await MPinHarness.admin(url, "session-status", ["accessCode": accessCode])["authenticatedUser"] as? String
                report.cell("mpin authenticate (the session is logged in)", r.status == 0 && loggedIn == Self.user, r.text)

                // Salt Edge: configure → connect → complete → confirm (the provider recorded it).
                r = try await mfa(["saltedge", "configure", "--allow-http-loopback"])
                let link = try #require(try await SaltEdgeEndToEndTests.admin(url, "connect-link")["deep_link"] as? String, "\(r.text)")
                r = try await mfa(["saltedge", "connect", link])
                let page = try #require(r.object["authenticationURL"] as? String, "\(r.text)")
                let pendingConnection = try #require(r.object["connectionId"] as? String)
                let redirect = try await URLSessionTransport(configuration: ActivatedClient.quiet(page)).send(HTTPRequest(method: .get, path: ""))
                r = try await mfa(["saltedge", "complete", pendingConnection, String(decoding: redirect.body, as: UTF8.self)])
                let connectionID = try #require(r.object["id"] as? String, "\(r.text)")
                report.cell("saltedge connect", r.status == 0, r.text)
                report.cell("saltedge: the connection's key pair was generated in the token", r.object["key"] as? String == "token", r.text)
                func authorization() async throws -> String {
                    let created = try await SaltEdgeEndToEndTests.admin(url, "authorization", ["connection_id": connectionID, "title": "Pay 5.00 EUR"])
                    return String(try #require(created["authorization_id"] as? Int))
                }
                func authorizationStatus(_ id: String) async throws -> String? {
                    try await SaltEdgeEndToEndTests.admin(url, "authorization/status", ["authorization_id": Int(id) ?? 0])["status"] as? String
                }
                let firstAuthorization = try await authorization()
                r = try await mfa(["saltedge", "confirm", firstAuthorization])
                report.cell("saltedge confirm (the provider recorded it)", try await authorizationStatus(firstAuthorization) == "confirmed" && r.status == 0, r.text)

                // CM: configure (same provider) → register → SMS code → environment → approve (the server recorded it).
                let keyFile = home + "/list-key.der"
                try Data(await cm.listPublicKeyDER).write(to: URL(fileURLWithPath: keyFile))
                r = try await mfa(["cm", "configure", "--base-url", proxy.url + "/cm", "--list-key-file", keyFile, "--allow-http-loopback", "--key-provider", token.uri])
                report.cell("cm configure --key-provider (same provider)", r.status == 0, r.text)
                r = try await mfa(["cm", "register", "--phone", "+31601234567"])
                let deviceID = try #require(r.object["deviceId"] as? String, "\(r.text)")
                let sms = try #require(try await CMEndToEndTests.admin(url, "sms", ["device_id": deviceID])["code"] as? String)
                r = try await mfa(["cm", "register"], input: sms + "\n")
                report.cell("cm register", r.object["registrationStatus"] as? String == "verified", r.text)
                let environment = try await CMEndToEndTests.admin(url, "environment", ["name": "Shop"])
                let environmentID = try #require(environment["environment_id"] as? String)
                r = try await mfa(["cm", "environment", "add"], input: try #require(environment["qr_code"] as? String) + "\n")
                // SoftHSM2 imports the secret; tpm2-pkcs11 refuses C_CreateObject of a secret key, so there it stays sealed in the record.
                let secretHome = token.name == "SoftHSM2" ? "token" : "record"
                report.cell("cm: the environment secret is kept in the \(secretHome)", r.object["key"] as? String == secretHome, r.text)
                func request() async throws -> String {
                    try #require(try await CMEndToEndTests.admin(url, "request", ["environment_id": environmentID, "device_id": deviceID])["auth_id"] as? String)
                }
                func requestStatus(_ id: String) async throws -> String? {
                    try await CMEndToEndTests.admin(url, "request/status", ["auth_id": id])["auth_status"] as? String
                }
                let firstRequest = try await request()
                r = try await mfa(["cm", "approve", firstRequest])
                report.cell("cm approve (the server recorded it)", try await requestStatus(firstRequest) == "approved" && r.status == 0, r.text)

                // One refused verb of each family that would otherwise reach the server.
                let (pendingAuthorization, pendingRequest) = (try await authorization(), try await request())
                func everyFamilyRefuses(_ fault: String, in directory: String = store, environment: [String: String]? = nil, naming: [String]) async throws {
                    let (seen, counterBefore) = (proxy.connections, await counter())
                    let verbs = [["powerauth", "status"], ["mpin", "authenticate", Self.user, "--otp"],
                                 ["saltedge", "confirm", pendingAuthorization], ["cm", "approve", pendingRequest]]
                    for verb in verbs {
                        let refused = try await mfa(verb, input: "123456\n", in: directory, environment: environment)
                        // Exit 3 with the store's code (not transport), and the message names what is missing.
                        let typed = refused.status == 3 && refused.text.contains(#""code":"store""#) && refused.text.contains("PKCS #11")
                        report.cell("\(fault): mfa \(verb[0]) \(verb[1]) refused", typed && naming.allSatisfy(refused.text.contains), refused.text)
                    }
                    let (authorizationNow, requestNow) = (try await authorizationStatus(pendingAuthorization), try await requestStatus(pendingRequest))
                    let untouched = authorizationNow != "confirmed" && requestNow != "approved"
                    let counterAfter = await counter()
                    report.cell("\(fault): the server saw no request (\(proxy.connections - seen) connections)",
                                proxy.connections == seen && untouched && counterAfter == counterBefore, "")
                }

                // (a) The store copied to a second home, with a fresh token of the same label and PIN.
                let secondHome = try HardwareToken.temporaryDirectory("hwk-second-home")
                defer { try? FileManager.default.removeItem(atPath: secondHome) }
                try HardwareToken.tool("/bin/cp", ["-a", store, secondHome + "/store"], environment: [:])
                let twin = try token.freshTwin()
                try await everyFamilyRefuses("(a) copied store, fresh token", in: secondHome + "/store", environment: token.environment.merging(twin) { $1 },
                                             naming: ["swiftmfa-store-key"])

                // (b) A wrong PIN: refused, and no counter spent (the next signature is the next counter).
                try token.setPIN("999999")
                before = await counter()
                r = try await sign()
                report.cell("(b) wrong PIN: sign refused", r.status == 3 && r.text.contains("CKR_PIN_INCORRECT"), r.text)
                try token.setPIN(token.pin)
                r = try await sign()
                (signed, after) = (try await accepted(r), await counter())
                report.cell("(b) wrong PIN: no counter spent (next signature accepted at counter +1)", signed && after == before + 1, "\(before) → \(after) \(r.text)")

                // (c) The token unplugged between two commands: refused, nothing sent; plugged back, every family works.
                try token.unplug()
                try await everyFamilyRefuses("(c) token unplugged", naming: ["token=" + token.label])
                try token.plugIn()
                before = await counter()
                r = try await sign()
                (signed, after) = (try await accepted(r), await counter())
                report.cell("(c) plugged back: powerauth sign accepted, no counter spent", signed && after == before + 1, r.text)
                r = try await mfa(["mpin", "authenticate", Self.user, "--otp"], input: "123456\n")
                report.cell("(c) plugged back: mpin authenticate --otp", r.status == 0 && (r.object["otp"] as? String)?.count == 6, r.text)
                r = try await mfa(["saltedge", "confirm", pendingAuthorization])
                report.cell("(c) plugged back: saltedge confirm", try await authorizationStatus(pendingAuthorization) == "confirmed", r.text)
                r = try await mfa(["cm", "approve", pendingRequest])
                report.cell("(c) plugged back: cm approve", try await requestStatus(pendingRequest) == "approved", r.text)

                // (d) SIGKILL while `mfa powerauth sign` works with the token: as soon as it has loaded the
                // token's module, half-way through the time a signature took from there, and the moment
                // its counter record reaches the disk (write-ahead: the client is then one step ahead,
                // inside the look-ahead window, whether or not the header was printed).
                var killed = 0
                let points: [(String, MFAChild.KillPoint, ClosedRange<Int>)] = [
                    ("0 ms after loading the module", .afterLoading(module: token.moduleFileName, delay: 0), 1...2),
                    ("\(Int(tokenPhase * 500)) ms after loading the module", .afterLoading(module: token.moduleFileName, delay: tokenPhase / 2), 1...2),
                    ("when the counter record is written", .onStoreWrite(directory: store), 2...2),
                ]
                for (when, point, steps) in points {
                    before = await counter()
                    let victim = try await sign(killAt: point)
                    killed += victim.killed ? 1 : 0
                    r = try await sign()
                    (signed, after) = (try await accepted(r), await counter())
                    let state = victim.killed ? "killed, \(after - before - 1) counter written ahead" : "had finished"
                    report.cell("(d) kill -9 \(when) (\(state)): next signature accepted at counter +\(steps)",
                                signed && steps.contains(after - before), "\(before) → \(after) \(r.text)")
                }
                report.cell("(d) the signers were killed while using the token (\(killed) of 3)", killed >= 2, "")
                report.cell("every `mfa` request went through the counting forwarder (\(proxy.connections) connections)", proxy.connections >= 12, "")
            }
        }
    }
}
