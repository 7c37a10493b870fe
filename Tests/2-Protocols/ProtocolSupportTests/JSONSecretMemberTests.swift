// Reading a secret member out of a JSON body without a String, against hand-written bodies:
// found at every depth and around every kind of neighbouring value, absent or null is nil, and
// what cannot be a plain secret string, or is not well-formed around it, is malformedInput.
// The secret Base64 decoder agrees with the String one and refuses what it refuses.

import CryptoPrimitives
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct JSONSecretMemberTests {
    func value(_ path: [String], _ body: String) throws -> String? {
        try JSONSecretMember.value(at: path, in: Array(body.utf8), what: "test").map { String(decoding: $0.unsafeExposedBytes, as: UTF8.self) }
    }

    @Test func theMemberIsFoundWhateverSurroundsIt() throws {
        #expect(try value(["s"], #"{"s":"AAEC"}"#) == "AAEC")
        #expect(try value(["s"], " {\n \"a\" : [1, {\"s\":\"no\"}, [], \"x\\\"y\"], \"n\": -1.5e3, \"t\":true, \"s\" : \"c2VjcmV0\" , \"z\":null} ") == "c2VjcmV0")
        #expect(try value(["r", "puk"], #"{"puk":"outer","r":{"code":"C","puk":"0123456789"},"after":{}}"#) == "0123456789")
        #expect(try value(["s"], #"{"s":""}"#) == "")
        // A name inside a string is not a member.
        #expect(try value(["s"], #"{"a":"\"s\":\"fake\"","s":"real"}"#) == "real")
        // A server may escape '/', which a quarter of Base64 secrets hold; the simple escapes are decoded.
        #expect(try value(["s"], #"{"s":"ab\/c\\d\"e\n"}"#) == "ab/c\\d\"e\n")
        // Nested 60 deep, inside the limit.
        let deep = String(repeating: #"{"a":"#, count: 60) + "1" + String(repeating: "}", count: 60)
        #expect(try value(["s"], #"{"x":"# + deep + #","s":"found"}"#) == "found")
    }

    @Test func anAbsentOrNullMemberIsNil() throws {
        #expect(try value(["s"], "{}") == nil)
        #expect(try value(["s"], #"{"a":"s"}"#) == nil)
        #expect(try value(["s"], #"{"s":null}"#) == nil)
        #expect(try value(["r", "puk"], #"{"r":null,"x":1}"#) == nil)
        #expect(try value(["r", "puk"], #"{"x":{"puk":"1"}}"#) == nil)
        // An escaped name is not compared: the member is not found (JSONDecoder's model says "s").
        #expect(try value(["s"], #"{"\u0073":"x"}"#) == nil)
    }

    @Test(arguments: [
        #"{"s":1}"#, #"{"s":["a"]}"#, #"{"s":"a\u0041"}"#, #"{"s":"a","s":"b"}"#, #"{"s":"a""#, #"{"s" "a"}"#, #"["s"]"#, "",
        #"{"a":[1,2}"#, #"{"a":}"#, #"{"s":"abc"#, #"{"r":"text"}"#, #"{"s":"a\"#, #"{"s":"a\q"}"#, #"{"a":-,"s":"x""#, #"{"a":nul"#,
        #"{"r":{"puk":"1"},"r":{"puk":"2"}}"#,
        // 70 deep, past the limit, and complete: only the depth refuses it.
        #"{"x":"# + String(repeating: #"{"a":"#, count: 70) + "1" + String(repeating: "}", count: 70) + #","s":"x"}"#,
    ])
    func whatCannotBeASecretStringIsMalformed(body: String) {
        let path = body.contains("\"r\"") ? ["r", "puk"] : ["s"]
        #expect(throws: ProtocolError(.malformedInput, "")) { try JSONSecretMember.value(at: path, in: Array(body.utf8), what: "test") }
    }

    @Test func theSecretBase64DecoderAgreesWithTheStringOne() throws {
        for text in ["", "AA==", "AAE=", "AAEC", "c2VjcmV0IGtleSBieXRlcw==", "/+/+"] {
            #expect(try Base64.decode(secret: SecretBytes(text.utf8)).unsafeExposedBytes == Base64.decode(text), "\(text)")
        }
        #expect(try Base64.decode(secret: SecretBytes("c2VjcmV0".utf8)).unsafeExposedBytes == Array("secret".utf8))
        for text in ["A", "AA=", "AA", "AB==", "A-==", "AA==AA==", "AA A"] {
            #expect(throws: CryptoError.invalidEncoding, "\(text)") { try Base64.decode(secret: SecretBytes(text.utf8)) }
        }
    }
}
