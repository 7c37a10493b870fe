// What the M-Pin client must refuse or keep on the device before anything is sent (docs/protocols/mpin.md §3,
// §6): a PIN that cannot be the user's never leaves (it would count toward the platform's block
// as a wrong PIN), a misfit PIN never turns a pending client secret into a token, a PIN length
// is a small number, and a registration step never writes a stale copy of the user back over
// what another process did during its awaits. Users are planted in a real store on disk; the
// transports record every request.

import AuthNetworking
import CryptoPrimitives
import Foundation
import MPinSDK
import MPinPlatform
import MPin
import ProtocolSupport
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct LocalChecksBeforeSendingTests {
    static let backend = "https://mfa.example"
    static let mpinID = Hex.encode(Array(#"{"userID":"alice@example.com","mobile":1,"salt":"00"}"#.utf8))

    static func settings() throws -> MPinPlatform.ClientSettings {
        let json = #"{"registerURL":"/rps/user","signatureURL":"/rps/signature","certivoxURL":"https://dta.example/v3/","#
            + #""mpinAuthServerURL":"/rps","authenticateURL":"/rps/authenticate","usePermits":false}"#
        return try MPinPlatform.ClientSettings(responseBody: Array(json.utf8), backend: backend)
    }

    static func client(_ transport: InProcessTransport) throws -> (MPinClient, SecureStore) {
        let path = try TemporaryDirectory("mpin-local").appending("store")
        let store = try SecureStore(directory: path)
        return (MPinClient(store: store, transport: .single(transport)), store)
    }

    /// A client secret for `mpinID` from a fresh master secret (one D-TA).
    static func clientSecret() throws -> MPin.ClientSecret {
        var random = SystemRandomSource()
        let share = try MPin.MasterSecretShare.random(using: &random)
        return MPin.Issuer.combine([MPin.Issuer.clientSecretShare(share, for: MPin.Identity(try Hex.decode(mpinID)))])
    }

    /// Plants a user in `state` with the given PIN length and, when registered, a real token.
    static func plant(_ store: SecureStore, state: MPinUser.State, pinLength: Int) throws -> MPinUser {
        var user = MPinUser(identity: "alice@example.com", backend: backend, deviceName: nil)
        user.state = state
        user.mpinID = mpinID
        user.pinLength = pinLength
        var record = UserRecord(user)
        let secret = try clientSecret()
        if state == .registered {
            let token = MPin.Client.extractPIN(MPin.PIN(1234), identity: MPin.Identity(try Hex.decode(mpinID)), clientSecret: secret)
            record.secrets.token = token.rawRepresentation
        } else if state == .activated {
            record.secrets.pendingClientSecret = secret.rawRepresentation
        }
        try UserRecords(store: store).write(record)
        return record.user
    }

    /// Settings kept from an earlier fetch do not let a backend the URL rule refuses become the
    /// active one: plain http (the policy) and, once a domain is trusted, a host outside it are
    /// refused at `setBackend`, and the backend set before stays.
    @Test func keptSettingsDoNotBypassTheURLRule() async throws {
        let (client, _) = try Self.client(InProcessTransport())
        try await client.setBackend(Self.backend, settings: try Self.settings())
        await expectError(MPinError.self, code: .urlRefused) { try await client.setBackend("http://mfa.example", settings: try Self.settings()) }
        await expectError(MPinError.self, code: .invalidInput) { try await client.setBackend("mfa.example", settings: try Self.settings()) }
        await client.addTrustedDomain("example.org")
        await expectError(MPinError.self, code: .untrustedDomain) { try await client.setBackend(Self.backend, settings: try Self.settings()) }
        #expect(await client.backend == Self.backend)
    }

    /// docs/protocols/mpin.md §3, §6: a five-digit PIN for a four-digit user is refused before pass 1, by
    /// every verb that authenticates; nothing is sent and no failure is counted.
    @Test func aPINLongerThanTheUsersIsRefusedBeforeAnyRequest() async throws {
        let transport = InProcessTransport()
        let (client, store) = try Self.client(transport)
        try await client.setBackend(Self.backend, settings: try Self.settings())
        let user = try Self.plant(store, state: .registered, pinLength: 4)
        let tooLong = try #require(MPin.PIN(decimal: "12345"))
        await expectError(MPinError.self, code: .invalidInput) { try await client.authenticate(user, pin: tooLong, accessCode: "7dae7a5c") }
        await expectError(MPinError.self, code: .invalidInput) { _ = try await client.generateRegistrationCode(for: user, pin: tooLong) }
        await expectError(MPinError.self, code: .invalidInput) { _ = try await client.generateOTP(for: user, pin: tooLong) }
        await expectError(MPinError.self, code: .invalidInput) { try await client.startSigningRegistration(for: user, pin: tooLong) }
        // A PIN made from an integer has no digit count: its value must still fit four digits.
        await expectError(MPinError.self, code: .invalidInput) { try await client.authenticate(user, pin: MPin.PIN(10_000), accessCode: nil) }
        #expect(await transport.sent.isEmpty)
        #expect(try await client.user(id: user.identity)?.failedAuthentications == 0)
        // A PIN that fits is sent (and fails here only because nothing answers).
        await expectError(MPinError.self, code: .transport) { try await client.authenticate(user, pin: MPin.PIN(9_999), accessCode: nil) }
        #expect(await transport.sent.count == 1)
    }

    /// finishRegistration refuses a PIN that does not fit its own PIN length, and PIN lengths
    /// that are not 1–9, keeping the pending client secret for the next try.
    @Test func finishRegistrationRefusesMisfitPINsAndKeepsTheClientSecret() async throws {
        let (client, store) = try Self.client(InProcessTransport())
        try await client.setBackend(Self.backend, settings: try Self.settings())
        let user = try Self.plant(store, state: .activated, pinLength: 0)
        let fiveDigits = try #require(MPin.PIN(decimal: "12345"))
        let threeDigits = try #require(MPin.PIN(decimal: "012"))
        for (pin, length) in [(fiveDigits, 4), (threeDigits, 4), (fiveDigits, 0), (fiveDigits, -5), (fiveDigits, Int.max), (fiveDigits, Int.min),
                              (fiveDigits, 10)] {
            await expectError(MPinError.self, code: .invalidInput) { _ = try await client.finishRegistration(for: user, pin: pin, pinLength: length) }
        }
        let kept = try #require(try UserRecords(store: store).read(identity: user.identity, backend: user.backend))
        #expect(kept.state == .activated && kept.secrets.pendingClientSecret != nil && kept.pinLength == 0)
        let registered = try await client.finishRegistration(for: user, pin: fiveDigits)   // the length defaults to the PIN's digits
        #expect(registered.state == .registered && registered.pinLength == 5)
    }

    /// A registration step awaits the D-TAs; a user deleted meanwhile (by another process, here
    /// inside the transport) stays deleted: the step fails instead of writing its stale copy back.
    @Test func confirmRegistrationDoesNotBringBackAUserDeletedMeanwhile() async throws {
        let share = try Self.clientSecret().rawRepresentation.withUnsafeBytes { Hex.encode($0) }
        let directory = try TemporaryDirectory("mpin-local").appending("store")
        let store = try SecureStore(directory: directory)
        let name = UserRecords.recordName(identity: "alice@example.com", backend: Self.backend)
        let transport = InProcessTransport { request in
            if request.path.contains("rps/signature/") {
                try? SecureStore(directory: directory).remove(name)   // the other process deletes the user
                return HTTPResponse(status: 200, headers: [], body: Array(#"{"clientSecretShare":"\#(share)","params":"app_id=1"}"#.utf8))
            }
            return HTTPResponse(status: 200, headers: [], body: Array(#"{"clientSecret":"\#(share)"}"#.utf8))
        }
        let client = MPinClient(store: store, transport: .single(transport))
        try await client.setBackend(Self.backend, settings: try Self.settings())
        let user = try Self.plant(store, state: .startedRegistration, pinLength: 0)
        await expectError(MPinError.self, code: .flowError) { _ = try await client.confirmRegistration(for: user) }
        #expect(await transport.sent.count == 2)
        #expect(try UserRecords(store: store).read(identity: user.identity, backend: user.backend) == nil)
    }

    /// docs/protocols/mpin.md §7.1 item 6: a wrong PIN is counted on the stored record; a stored count of
    /// Int.max overflowed `+= 1`. It saturates now, and a negative one restarts at 1.
    @Test(arguments: [(Int.max, Int.max), (-7, 1), (Int.min, 1)])
    func aStoredFailureCountNeverOverflows(stored: Int, expected: Int) async throws {
        let y = String(repeating: "01", count: 32)
        let transport = InProcessTransport { request in
            if request.path.hasSuffix("pass1") { return HTTPResponse(status: 200, headers: [], body: Array(#"{"y":"\#(y)"}"#.utf8)) }
            if request.path.hasSuffix("pass2") { return HTTPResponse(status: 200, headers: [], body: Array(#"{"authOTT":"0a0b"}"#.utf8)) }
            return HTTPResponse(status: 401, headers: [], body: [])   // authenticate: a wrong PIN
        }
        let (client, store) = try Self.client(transport)
        try await client.setBackend(Self.backend, settings: try Self.settings())
        var user = try Self.plant(store, state: .registered, pinLength: 4)
        try UserRecords(store: store).update(identity: user.identity, backend: user.backend) { (record: inout UserRecord?) throws(MPinError) in
            record?.failedAuthentications = stored
        }
        user = try #require(try await client.user(id: user.identity))
        await #expect(throws: MPinError(.incorrectPIN, "")) { try await client.authenticate(user, pin: MPin.PIN(4321), accessCode: nil) }
        #expect(try await client.user(id: user.identity)?.failedAuthentications == expected)
        #expect(await transport.sent.count == 3)
    }

    /// MIRACL Trust (docs/protocols/mpin.md §7.3): the same rule before pass 1, the quick code and the signing
    /// session's first request.
    @Test func miraclTrustRefusesAMisfitPINBeforeAnyRequest() async throws {
        let transport = InProcessTransport()
        let path = try TemporaryDirectory("mpin-local").appending("store")
        let store = try SecureStore(directory: path)
        let client = MPinClient(configuration: MPinClient.Configuration(platform: .trust(projectID: "p-1")), store: store, transport: .single(transport))
        try await client.setBackend(Self.backend, settings: try Self.settings())
        let user = try Self.plant(store, state: .registered, pinLength: 4)
        var random = SystemRandomSource()
        let publicKey = try MPin.DVS.PrivateKey(using: &random).publicKey
        try UserRecords(store: store).update(identity: user.identity, backend: user.backend) { (record: inout UserRecord?) throws(MPinError) in
            let token = record?.secrets.token
            record?.secrets.signingToken = token
            record?.secrets.signingMPinID = Self.mpinID
            record?.secrets.signingPublicKey = Hex.encode(publicKey.rawRepresentation)
            record?.secrets.signingDTAs = "dtas"
        }
        let tooLong = try #require(MPin.PIN(decimal: "123456"))
        await expectError(MPinError.self, code: .invalidInput) { try await client.authenticate(user, pin: tooLong, accessCode: "ac-1") }
        await expectError(MPinError.self, code: .invalidInput) { _ = try await client.authenticationJWT(for: user, pin: tooLong) }
        await expectError(MPinError.self, code: .invalidInput) { _ = try await client.generateRegistrationCode(for: user, pin: tooLong) }
        await expectError(MPinError.self, code: .invalidInput) { _ = try await client.completeSigningSession(id: "s-1", for: user, pin: tooLong) }
        #expect(await transport.sent.isEmpty)
        await expectError(MPinError.self, code: .transport) { try await client.authenticate(user, pin: MPin.PIN(1234), accessCode: nil) }
        #expect(await transport.sent.count == 1)
    }

    /// docs/protocols/mpin.md §7.1: times outside 1970…9999 and negative lifetimes are not times.
    @Test func absurdPlatformTimesAreRefused() throws {
        struct Holder: Decodable { let time: MPinPlatform.FlexibleTime }
        for number in ["\(Int64.max)", "\(Int64.min)", "-1", "253402300800000"] {
            #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(Holder.self, from: Data(#"{"time":\#(number)}"#.utf8)) }
        }
        let ok = try JSONDecoder().decode(Holder.self, from: Data(#"{"time":1476194300000}"#.utf8))
        #expect(ok.time.date == Date(timeIntervalSince1970: 1_476_194_300))
    }
}
