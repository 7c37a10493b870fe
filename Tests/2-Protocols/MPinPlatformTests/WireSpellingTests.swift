// The member names the platform generations spell differently (docs/protocols/mpin.md §7.2 and §7.3): every
// answer decodes under either spelling, two spellings that disagree are refused, and only a hex
// M-Pin ID may go into a URL path.

import CryptoPrimitives
import MPinPlatform
import ProtocolSupport
import Testing

@Suite struct WireSpellingTests {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONResponse.decode(T.self, from: Array(json.utf8), what: "test")
    }

    @Test func activationTokenOrActToken() throws {
        #expect(try Self.decode(MPinPlatform.ConfirmationWire.self, #"{"accessId":"a1","activationToken":"t1","expireTime":1}"#).activationToken == "t1")
        #expect(try Self.decode(MPinPlatform.ConfirmationWire.self, #"{"projectId":"p","actToken":"t2"}"#).activationToken == "t2")
        #expect(try Self.decode(MPinPlatform.ConfirmationWire.self, #"{"activationToken":"t3","actToken":"t3"}"#).activationToken == "t3")
        #expect(throws: ProtocolError.self) { try Self.decode(MPinPlatform.ConfirmationWire.self, #"{"activationToken":"t3","actToken":"t4"}"#) }
        #expect(throws: ProtocolError.self) { try Self.decode(MPinPlatform.ConfirmationWire.self, #"{"accessId":"a1"}"#) }
    }

    @Test func dvsRegisterTokenFlatOrNested() throws {
        #expect(try Self.decode(MPinPlatform.AuthenticateWire.self, #"{"status":200,"dvs-register-token":"d1"}"#).dvsRegisterToken == "d1")
        #expect(try Self.decode(MPinPlatform.AuthenticateWire.self, #"{"dvsRegister":{"token":"d2","curve":"BN254CX"}}"#).dvsRegisterToken == "d2")
        #expect(try Self.decode(MPinPlatform.AuthenticateWire.self, #"{"code":"c","otp":"123"}"#).dvsRegisterToken == nil)
        #expect(throws: ProtocolError.self) {
            try Self.decode(MPinPlatform.AuthenticateWire.self, #"{"dvs-register-token":"d1","dvsRegister":{"token":"d2"}}"#)
        }
        #expect(try Self.decode(MPinTrust.AuthenticateWire.self, #"{"jwt":"j","dvsRegister":{"token":"d3","curve":"BN254CX"}}"#).dvsRegisterToken == "d3")
        #expect(try Self.decode(MPinTrust.AuthenticateWire.self, #"{"dvs-register-token":"d4"}"#).dvsRegisterToken == "d4")
        #expect(try Self.decode(MPinTrust.AuthenticateWire.self, #"{"jwt":"j"}"#).dvsRegisterToken == nil)
    }

    @Test func dvsRegisterAnswerHyphenatedOrCamelCase() throws {
        let hyphenated = try MPinPlatform.DVSRegisterWire(body: Array(#"{"cs2-url":"https://d/cs2","mpin-id":"7b7d","dvs-cs1":"04aa","dtas":"x"}"#.utf8))
        let camel = try MPinPlatform.DVSRegisterWire(
            body: Array(#"{"cs2url":"https://d/cs2","mpinId":"7b7d","dvsClientSecretShare":"04AA","dtas":"x","curve":"BN254CX"}"#.utf8))
        for wire in [hyphenated, camel] {
            #expect(wire.cs2URL == "https://d/cs2" && wire.mpinID == "7b7d" && wire.dvsCS1.unsafeExposedBytes == [0x04, 0xAA] && wire.dtas == "x")
        }
        let refused = [
            (#"{"cs2url":"https://d/cs2","mpinId":"7b7d"}"#, "no dvsClientSecretShare or dvs-cs1"),
            (#"{"cs2url":"https://a","cs2-url":"https://b","mpinId":"7b7d","dvs-cs1":"04"}"#, "not the expected JSON"),
            (#"{"cs2url":"https://d","mpinId":"7b7d","dvs-cs1":"04","dvsClientSecretShare":"05"}"#, "disagree"),
            (#"{"cs2url":"https://d","mpinId":"7b7d","dvs-cs1":"0g"}"#, "dvs-cs1 is not hex"),
            (#"{"cs2url":"https://d","mpinId":"7b7d","dvs-cs1":4}"#, "cannot be read"),
            (#"{"cs2url":"https://d","mpinId":"7b7d","dvs-cs1":"04"},"#, "not the expected JSON"),
        ]
        for (body, reason) in refused {
            let error = #expect(throws: ProtocolError.self, "\(body)") { try MPinPlatform.DVSRegisterWire(body: Array(body.utf8)) }
            #expect(error?.code == .malformedInput && error?.message.contains(reason) == true, "\(body): \(String(describing: error))")
        }
        let oneNull = try MPinPlatform.DVSRegisterWire(body: Array(#"{"cs2url":"https://d","mpinId":"7b7d","dvs-cs1":null,"dvsClientSecretShare":"04"}"#.utf8))
        #expect(oneNull.dvsCS1.unsafeExposedBytes == [0x04])
        #expect(try MPinPlatform.DVSRegisterWire(body: Array(#"{"cs2url":"https://d","mpinId":"7b7d","dvs-cs1":"0a","dvsClientSecretShare":"0A"}"#.utf8))
            .dvsCS1.unsafeExposedBytes == [0x0A])
    }

    @Test func clientSecretSharesAreReadIntoSecretBytes() throws {
        let signature = try MPinPlatform.SignatureWire(body: Array(#"{"clientSecretShare":"04ff00","params":"a=1"}"#.utf8))
        #expect(signature.clientSecretShare.unsafeExposedBytes == [0x04, 0xFF, 0x00] && signature.params == "a=1")
        #expect(throws: ProtocolError.self) { try MPinPlatform.SignatureWire(body: Array(#"{"params":"a=1"}"#.utf8)) }
        #expect(throws: ProtocolError.self) { try MPinPlatform.SignatureWire(body: Array(#"{"clientSecretShare":"04ff00"}"#.utf8)) }
        let second = try MPinPlatform.ClientSecretWire(body: Array(#"{"clientSecret":"04","dvsClientSecret":null}"#.utf8))
        #expect(second.clientSecret?.unsafeExposedBytes == [0x04] && second.dvsClientSecret == nil)
        for body in ["[]", "null", "\"04\"", #"{"clientSecret":"04"},"#, #"{"clientSecret":"0"}"#] {
            #expect(throws: ProtocolError.self, "\(body)") { try MPinPlatform.ClientSecretWire(body: Array(body.utf8)) }
        }
        #expect(throws: ProtocolError.self) { try MPinPlatform.SignatureWire(body: Array(#"{"clientSecretShare":"04","params":"a"}x"#.utf8)) }
        let trust = try MPinTrust.SignatureWire(body: Array(#"{"dvsClientSecretShare":"04","cs2url":"https://d","curve":"BN254CX","dtas":"x"}"#.utf8))
        #expect(trust.dvsClientSecretShare.unsafeExposedBytes == [0x04] && trust.cs2url == "https://d" && trust.curve == "BN254CX" && trust.dtas == "x")
        #expect(throws: ProtocolError.self) { try MPinTrust.SignatureWire(body: Array(#"{"cs2url":"https://d","dtas":"x"}"#.utf8)) }
    }

    @Test func hexMPinIDs() {
        #expect(MPinPlatform.isHexMPinID("7b226d6f62696c65223a317d") && MPinPlatform.isHexMPinID("ABCDEF0123"))
        for bad in ["", "7", "7g", "7b/2", "..", "%0d", "7b 2", "７b"] { #expect(!MPinPlatform.isHexMPinID(bad), "\(bad)") }
    }
}
