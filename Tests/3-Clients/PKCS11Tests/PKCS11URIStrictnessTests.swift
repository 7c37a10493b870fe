// RFC 7512 §2.3 details that decide whether a PIN reaches a file or argv: attribute names are
// ABNF literals (case-insensitive), so `PIN-VALUE` is `pin-value`; a PIN attribute belongs in
// the query and is refused in the path; and no attribute may appear twice.

import Testing
import PKCS11

@Suite struct PKCS11URIStrictnessTests {
    @Test(arguments: ["pkcs11:token=a?module-path=/m.so&PIN-VALUE=1234",
                      "pkcs11:token=a?module-path=/m.so&Pin-Value=1234",
                      "pkcs11:token=a?pin-vAlUe=1234&module-path=/m.so",
                      "PKCS11:token=a?PIN-VALUE=%31%32%33%34&module-path=/m.so"])
    func aPINValueInAnyLetterCaseIsRecognised(text: String) throws {
        let uri = try PKCS11URI(text)
        #expect(uri.pinValue == "1234")
        #expect(!uri.description.contains("1234"))
        #expect(throws: PKCS11Error.self) { try StoreProviderChoice(parsing: text) }
        let allowed = try StoreProviderChoice(parsing: text, allowingPINValue: true)
        #expect(!allowed.setting.contains("1234"), "\(allowed.setting)")
        #expect(!allowed.setting.lowercased().contains("pin-value"))
    }

    @Test func aPINSourceInAnyLetterCaseIsRecognised() throws {
        #expect(try PKCS11URI("pkcs11:token=a?PIN-SOURCE=file:/run/pin&module-path=/m.so").pinSource == "file:/run/pin")
        #expect(try PKCS11URI("pkcs11:token=a?Module-Path=/m.so").modulePath == "/m.so")
        #expect(try PKCS11URI("pkcs11:TOKEN=a;Object=k").token == "a")
    }

    @Test(arguments: ["pkcs11:token=a;pin-value=1234?module-path=/m.so",
                      "pkcs11:token=a;PIN-VALUE=1234?module-path=/m.so",
                      "pkcs11:pin-source=file:/run/pin;token=a?module-path=/m.so",
                      "pkcs11:token=a;module-path=/m.so",
                      "pkcs11:token=a?module-path=/m.so&token=b",
                      "pkcs11:token=a?module-path=/m.so&pin%2Dvalue=1234",
                      "pkcs11:token=a?module-path=/m.so&pin%2dvalue=1234"])
    func aPINOrQueryAttributeInTheWrongPlaceIsRefused(text: String) {
        let error = #expect(throws: PKCS11Error.self) { try PKCS11URI(text) }
        #expect(error?.kind == .invalidURI)
        #expect(!(error?.description.contains("1234") ?? true))
    }

    @Test(arguments: ["pkcs11:token=a;token=b",
                      "pkcs11:token=a;TOKEN=b",
                      "pkcs11:token=a;x-vendor=1;x-vendor=2",
                      "pkcs11:token=a?module-path=/m.so&module-path=/n.so",
                      "pkcs11:token=a?module-path=/m.so&Module-Path=/n.so",
                      "pkcs11:token=a?pin-source=/p&pin-source=/q&module-path=/m.so",
                      "pkcs11:token=a?module-path=/m.so&x-vendor=1&x-vendor=2"])
    func aRepeatedAttributeIsRefused(text: String) {
        let error = #expect(throws: PKCS11Error.self) { try PKCS11URI(text) }
        #expect(error?.kind == .invalidURI)
    }

    @Test func aRepeatedAttributeBuiltFromPartsIsRefused() {
        #expect(throws: PKCS11Error.self) {
            try PKCS11URI(query: [.init(name: "module-path", text: "/m.so"), .init(name: "module-path", text: "/n.so")])
        }
        #expect(throws: PKCS11Error.self) {
            try PKCS11URI(path: [.init(name: "token", text: "a"), .init(name: "Token", text: "b")])
        }
        // Built from parts, a name is taken in lower case too: the PIN is recognised and redacted.
        let uri = try? PKCS11URI(path: [.init(name: "token", text: "a")], query: [.init(name: "PIN-VALUE", text: "1")])
        #expect(uri?.pinValue == "1")
        #expect(uri?.description == "pkcs11:token=a?pin-value=REDACTED")
    }
}
