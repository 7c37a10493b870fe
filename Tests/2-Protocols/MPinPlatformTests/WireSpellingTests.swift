// The member names the platform generations spell differently (docs/protocols/mpin.md §7.2 and §7.3): every
// answer decodes under either spelling, two spellings that disagree are refused, and only a hex
// M-Pin ID may go into a URL path.

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
        let hyphenated = try Self.decode(MPinPlatform.DVSRegisterWire.self, #"{"cs2-url":"https://d/cs2","mpin-id":"7b7d","dvs-cs1":"04aa","dtas":"x"}"#)
        let camel = try Self.decode(MPinPlatform.DVSRegisterWire.self,
                                    #"{"cs2url":"https://d/cs2","mpinId":"7b7d","dvsClientSecretShare":"04aa","dtas":"x","curve":"BN254CX"}"#)
        for wire in [hyphenated, camel] {
            #expect(wire.cs2URL == "https://d/cs2" && wire.mpinID == "7b7d" && wire.dvsCS1 == "04aa" && wire.dtas == "x")
        }
        #expect(throws: ProtocolError.self) { try Self.decode(MPinPlatform.DVSRegisterWire.self, #"{"cs2url":"https://d/cs2","mpinId":"7b7d"}"#) }
        #expect(throws: ProtocolError.self) {
            try Self.decode(MPinPlatform.DVSRegisterWire.self, #"{"cs2url":"https://a","cs2-url":"https://b","mpinId":"7b7d","dvs-cs1":"04"}"#)
        }
    }

    @Test func hexMPinIDs() {
        #expect(MPinPlatform.isHexMPinID("7b226d6f62696c65223a317d") && MPinPlatform.isHexMPinID("ABCDEF0123"))
        for bad in ["", "7", "7g", "7b/2", "..", "%0d", "7b 2", "７b"] { #expect(!MPinPlatform.isHexMPinID(bad), "\(bad)") }
    }
}
