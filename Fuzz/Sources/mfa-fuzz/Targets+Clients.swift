// The Salt Edge, CM and M-Pin targets, the secure-store record and the vector-file parsers.
import CMAuthenticator
import MFACommandLine
import MPinSDK
import MPinPlatform
import CryptoPrimitives
import Foundation
import MPin
import PlainHTTPTransport
import ProtocolSupport
import SaltEdge
import SecureStore
import VectorFormats

// Salt Edge (deep links, access-token redirects, provider configuration and its public key,
// encrypted bundles decrypted with a real key, every response) and CM (QR codes, phone
// numbers, certificate lists, every response).

extension FuzzTarget {
    static let saltEdge: [FuzzTarget] = [
        FuzzTarget("saltedge-links", seeds: [.jsonStrings(under: "saltedge/derived_vectors.json", keys: ["deep_links", "connect", "connect_query", "url", "link", "input"], decodeHex: false)]) { input in
            let text = text(input)
            _ = try? SaltEdge.DeepLink(parsing: text)
            _ = try? SaltEdge.DeepLink(parsing: text, urlPolicy: .insecureAllowingPlainHTTPToLoopback)
            _ = SaltEdge.DeepLink.apiVersion(ofConfigurationURL: text)
            _ = try? SaltEdge.AccessTokenRedirect(parsing: text)
            _ = try? SaltEdge.providerPublicKey(fromText: text)
        },
        FuzzTarget("saltedge-bundle", seeds: [.files(["saltedge/ios-fixtures/correct_encrypted_data.json", "saltedge/ios-fixtures/incorrect_encrypted_data.json",
                                                      "saltedge/ios-fixtures/valid_encrypted_authorization_data.json"])]) { input in
            guard let bundle = try? SaltEdge.EncryptedBundle(jsonBytes: input) else { return }
            _ = try? bundle.decrypt(with: SaltEdgeFixtures.connectionKey)
        },
        FuzzTarget("saltedge-responses", seeds: [.files(["saltedge/ios-fixtures/valid_unconfirmed_session_response.json"]),
                                                 .jsonObjects(under: "saltedge/derived_vectors.json", keys: ["authorizations_index_response", "body"])]) { input in
            let response = response(input)
            _ = try? SaltEdge.requireSuccess(response)
            _ = try? SaltEdge.ProviderConfiguration(responseBody: input)
            if let list = try? SaltEdge.EncryptedAuthorization.list(from: response) {
                for item in list.prefix(4) { _ = try? item.decrypt(with: SaltEdgeFixtures.connectionKey) }
            }
            _ = try? SaltEdge.EncryptedAuthorization.single(from: response)
            _ = try? SaltEdge.DecisionResult(response: response)
            _ = try? SaltEdge.CreatedConnection(response: response)
            _ = try? SaltEdge.ConnectionInfo(response: response)
            _ = try? SaltEdge.connectionID(from: response)
            _ = try? SaltEdge.InstantActionResult(response: response)
            if let consents = try? SaltEdge.EncryptedConsent.list(from: response) {
                for item in consents.prefix(4) { _ = try? item.decrypt(with: SaltEdgeFixtures.connectionKey) }
            }
            _ = try? SaltEdge.revokedConsentID(from: response)
        },
    ]

    static let cm: [FuzzTarget] = [
        FuzzTarget("cm-qr", seeds: [.jsonStrings(under: "cm/qr_samples.json", keys: ["qr"], decodeHex: false)]) { input in
            let text = text(input)
            _ = try? CMAuthenticator.Environment(qrCode: text)
            _ = try? CMAuthenticator.PhoneNumber(text)
        },
        FuzzTarget("cm-responses", seeds: [.files(["cm/sdk_constants.json"])]) { input in
            let response = response(input)
            _ = try? CMAuthenticator.requireSuccess(response)
            _ = try? CMAuthenticator.AuthenticationRequest.pending(from: response)
            _ = try? CMAuthenticator.answerStatus(from: response)
            _ = try? CMAuthenticator.EnvironmentInfo.list(from: response)
            _ = try? CMAuthenticator.Requests.checkRegistration(response)
            _ = try? CMAuthenticator.DeviceRegistration(response: response)
            _ = try? CMAuthenticator.verifiedPins(from: response, key: SaltEdgeFixtures.connectionKeyPublic)
            _ = try? CMAuthenticator.verifiedPins(from: response)
        },
    ]
}

enum SaltEdgeFixtures {
    /// The connection key: the 2048-bit fixture key.
    static let connectionKey = SaltEdge.ConnectionKey(privateKey: Fixtures.rsaSigning)
    static var connectionKeyPublic: RSA.Signing.PublicKey { Fixtures.rsaSigning.publicKey }
}

// M-Pin values from the platform (client-secret shares, time permits, DVS keys, identities,
// PINs), the secure-store record format (bytes planted as a record file of a real store), and
// the vector-file parsers `mfa vectors` runs on third-party files.

extension FuzzTarget {
    static let mpin: [FuzzTarget] = [
        FuzzTarget("mpin-values", seeds: [.jsonStrings(under: "mpin/milagro-crypto-c/mpin/BN254_CX.json", keys: ["CS1", "TIME_PERMIT", "TOKEN", "CLIENT_SECRET", "HASH_MPIN_ID_HEX"], decodeHex: true)]) { input in
            _ = try? MPin.ClientSecretShare(rawRepresentation: input)
            _ = try? MPin.TimePermit(rawRepresentation: input)
            _ = try? MPin.Token(rawRepresentation: input)
            _ = try? MPin.DVS.PublicKey(rawRepresentation: input)
            _ = try? MPin.DVS.PrivateKey(rawRepresentation: input)
            _ = try? MPin.Identity(hash: input)
            _ = MPin.PIN(decimal: FuzzTarget.text(input))
            _ = MPin.PIN(decimal: SecretBytes(input))
            _ = MPin.DVS.verifyDocument(FuzzTarget.text(input), hash: input)
        },
        // Every answer of the MIRACL platform that MPinClient parses (docs/protocols/mpin.md §7.1–§7.2), seeded
        // with the recorded traffic's bodies and URLs; a parsed URL must print as one that
        // parses to the same location.
        FuzzTarget("mpin-platform-responses", seeds: [.jsonStrings(under: "mpin/mfa-sdk-core-recorded", keys: ["data", "url"], decodeHex: false)]) { input in
            _ = try? MPinPlatform.ClientSettings(responseBody: input, backend: "https://api.example.com")
            _ = try? JSONResponse.decode(MPinPlatform.ServiceWire.self, from: input, what: "service")
            _ = try? JSONResponse.decode(MPinPlatform.SessionWire.self, from: input, what: "session")
            if let wire = try? JSONResponse.decode(MPinPlatform.AuthorizeWire.self, from: input, what: "authorize") {
                _ = MPinClient.accessCode(inQRText: wire.qrURL)
            }
            _ = try? MPinPlatform.RegisterWire(body: input)
            _ = try? MPinPlatform.SignatureWire(body: input)
            _ = try? MPinPlatform.ClientSecretWire(body: input)
            _ = try? JSONResponse.decode(MPinPlatform.TimePermitWire.self, from: input, what: "timePermit")
            _ = try? JSONResponse.decode(MPinPlatform.Pass1Wire.self, from: input, what: "pass1")
            _ = try? MPinPlatform.Pass2Wire(body: input)
            _ = try? JSONResponse.decode(MPinPlatform.AuthenticateWire.self, from: input, what: "authenticate")
            _ = try? MPinPlatform.DVSRegisterWire(body: input)
            _ = try? JSONResponse.decode(MPinPlatform.ConfirmationWire.self, from: input, what: "confirmation")
            let text = FuzzTarget.text(input)
            _ = try? MPinPlatform.point(hex: text, what: "point")
            _ = MPinPlatform.resolve(text, against: "https://api.example.com/base")
            if let location = MPinPlatform.Location(text), let again = MPinPlatform.Location(location.description),
               again.origin != location.origin || again.path != location.path {
                FuzzTarget.violated("a parsed URL printed as one with another origin or path", input)
            }
        },
    ]

    /// `mfa`'s one command model: NUL-separated arguments; the parse answers or throws a usage
    /// error, and every accessor of what it returns answers or throws.
    static let commandLine: [FuzzTarget] = [
        FuzzTarget("mfa-arguments", seeds: [.generated {
            [["mpin", "register", "alice@example.com", "--pin-file", "/tmp/pin", "--json"], ["powerauth", "status", "--store"],
             ["powerauth", "token", "create", "t1", "--password", "-"], ["mpin", "sign", "alice@example.com", "--hash", "00ff"], ["help", "cm", "environment"],
             ["cm", "configure", "--json", "--base-url", "x", "--", "y"], ["help", "--reference"], ["vectors", "--junit", "r.xml", "a"],
             ["mpin", "authenticate", "--qr", "http://127.0.0.1:8080/mpin#abc", "--allow-http-loopback"],
             ["powerauth", "activate", "--code=-"], ["cm", "environment", "remove", "--help"]].map { Array($0.joined(separator: "\0").utf8) }
        }]) { input in
            let arguments = input.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            let invocation: Invocation
            do { invocation = try MFACommands.model.parse(arguments) } catch { return }  // a usage error is an answer
            guard case .run(_, _, let options) = invocation else { return }
            _ = try? options.require("--hash")
            _ = try? options.argument(0, "first")
            _ = try? options.argument(Int(input.first ?? 0) - 128, "any")
            _ = options.json
            _ = options.secretSource("--code")
        },
    ]

    static let store: [FuzzTarget] = [
        FuzzTarget("store-record", seeds: [.generated(StoreFixtures.recordSeeds)]) { input in
            StoreFixtures.plant(input)
            _ = try? StoreFixtures.store.read("fuzzed")
        },
    ]

    /// PlainHTTPTransport's HTTP/1.1 response framing, fed as if all bytes had arrived and the
    /// peer had closed, and again as if more might come; with any split point, parsing the whole
    /// must agree with itself (framing never depends on how the bytes were read).
    static let http: [FuzzTarget] = [
        FuzzTarget("http1-response", seeds: [.generated {
            ["HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
             "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=1\r\nWiki\r\n0\r\nT: 1\r\n\r\n",
             "HTTP/1.0 500 Oops\r\nX: y\r\n\r\n<html>", "HTTP/1.1 204 No Content\r\n\r\n"].map { Array($0.utf8) }
        }]) { input in
            let closed = try? HTTP1Message.parseResponse(input, connectionClosed: true)
            if let open = try? HTTP1Message.parseResponse(input, connectionClosed: false), open != closed {
                FuzzTarget.violated("a complete framed response read differently once the peer closed", input)
            }
        },
    ]

    static let vectorFiles: [FuzzTarget] = [
        FuzzTarget("vector-files", seeds: [.files(["cavp/aes/CBCGFSbox128.rsp", "mpin/milagro-crypto-c/bn254cx/fp_BN254CX.txt",
                                                   "powerauth/crc16-arc.json"])]) { input in
            let data = Data(input)
            for path in ["x.json", "x.rsp", "x.pem", "x.txt"] { _ = try? VectorFile.parse(data, path: path) }
            _ = try? HexText.bytes(FuzzTarget.text(input))
        },
    ]
}

/// A real store in a fresh temporary directory with a fixed key; the target overwrites the
/// record file `fuzzed` with the input and reads it back through the store.
enum StoreFixtures {
    /// The store's directory, inside a fresh mkdtemp directory (mode 0700, an unguessable name).
    static let directory: String = {
        var template = Array((NSTemporaryDirectory() + "mfa-fuzz-store-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
            fatalError("no temporary directory for the fuzz store")
        }
        atexit { StoreFixtures.removeDirectory() }  // libFuzzer ends a run with exit(): leave no store behind
        return String(cString: made) + "/store"
    }()

    /// Removes the store and its temporary parent; a crash leaves them, with the crash input,
    /// for the post-mortem.
    static func removeDirectory() {
        let parent = String(directory.dropLast("/store".count))
        do { try FileManager.default.removeItem(atPath: parent) } catch {
            // Nothing there, or a file system that refuses: nothing a fuzzer can do about it.
        }
    }

    static let store: SecureStore = {
        do {
            let key = try StoreKey(SecretBytes([UInt8](repeating: 0x42, count: 32)))
            let store = try SecureStore(directory: directory, keyProvider: SuppliedKeyProvider(key: key))
            try store.write(SecretBytes(Array("{\"seed\":true}".utf8)), to: "fuzzed")
            return store
        } catch {
            fatalError("the fuzz store does not open: \(error)")
        }
    }()

    static func plant(_ bytes: [UInt8]) {
        _ = store
        FileManager.default.createFile(atPath: directory + "/fuzzed", contents: Data(bytes))
    }

    /// A real sealed record as the seed.
    static func recordSeeds() -> [[UInt8]] {
        _ = store
        guard let data = FileManager.default.contents(atPath: directory + "/fuzzed") else { return [] }
        return [Array(data)]
    }
}
