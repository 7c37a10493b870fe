// `powerauth/activation-code-cases.json` and `powerauth/url-encoding-and-config.json` (vectors
// README §B): activation and recovery codes, PUKs, auto-correction, form encoding, GET
// canonicalisation and the SDK configuration string.

import CryptoPrimitives
import FoundationEssentials
import PowerAuth
import VectorFormats

enum PowerAuthCodeFiles {
    static func checker(for name: String, _ json: JSONValue) -> ((JSONValue, inout CaseLog) -> Void)? {
        switch name {
        case "activation-code-cases.json" where json["validActivationCodes"] != nil: checkCodes
        case "url-encoding-and-config.json" where json["urlEncoding"] != nil: checkEncoding
        default: nil
        }
    }

    static func checkCodes(_ json: JSONValue, _ log: inout CaseLog) {
        for entry in log.array(json["validActivationCodes"], "validActivationCodes") {
            let code = entry["code"]?.string ?? ""
            let decoded = try? Base32.decode(code.filter { $0 != "-" })
            guard let expectedHex = entry["decodedHex"]?.string, let expected = try? HexText.bytes(expectedHex, field: "decodedHex") else {
                log.fail("valid \(code)", "", expected: "decodedHex in hex", got: "missing or not hex")
                continue
            }
            log.expect(PowerAuth.isValidCode(code) && decoded == expected, "valid \(code)", expected: "valid, \(hex(expected))",
                       got: "\(PowerAuth.isValidCode(code)), \(decoded.map(hex) ?? "undecodable")")
        }
        for code in log.strings(json["invalidActivationCodes"], "invalidActivationCodes") {
            log.expect(!PowerAuth.isValidCode(code) && (try? PowerAuth.ActivationCode(parsing: code)) == nil, "invalid \"\(code)\"",
                       expected: "invalid", got: "accepted")
        }
        for entry in log.array(json["activationCodeParser"], "activationCodeParser") {
            let input = entry["input"]?.string ?? ""
            let parsed = try? PowerAuth.ActivationCode(parsing: input)
            if entry["valid"]?.bool == true {
                let same = parsed?.code == entry["activationCode"]?.string && parsed?.signature == entry["activationSignature"]?.string
                log.expect(same, "parser \"\(input)\"", expected: "\(entry["activationCode"]?.string ?? "") # \(entry["activationSignature"]?.string ?? "none")",
                           got: parsed.map { "\($0.code) # \($0.signature ?? "none")" } ?? "rejected")
            } else {
                log.expect(parsed == nil, "parser \"\(input)\"", expected: "rejected", got: "accepted")
            }
        }
        let recovery = json["recoveryCodeValidation"]
        for code in log.strings(recovery?["valid_prefixAllowed"], "recoveryCodeValidation.valid_prefixAllowed") {
            log.expect((try? PowerAuth.recoveryCode(parsing: code)) != nil, "recovery \(code)", expected: "valid", got: "rejected")
        }
        for code in log.strings(recovery?["invalid"], "recoveryCodeValidation.invalid") {
            log.expect((try? PowerAuth.recoveryCode(parsing: code)) == nil, "recovery \"\(code)\"", expected: "invalid", got: "accepted")
        }
        for entry in log.array(json["recoveryCodeParser"], "recoveryCodeParser") {
            let input = entry["input"]?.string ?? ""
            let parsed = try? PowerAuth.recoveryCode(parsing: input)
            let expected = entry["valid"]?.bool == true ? entry["recoveryCode"]?.string : nil
            log.expect(parsed == expected, "recovery parser \"\(input)\"", expected: expected ?? "rejected", got: parsed ?? "rejected")
        }
        for (key, valid) in [("valid", true), ("invalid", false)] {
            for puk in log.strings(json["puk"]?[key], "puk.\(key)") {
                log.expect(PowerAuth.isValidPUK(puk) == valid, "PUK \"\(puk)\"", expected: valid ? "valid" : "invalid", got: valid ? "invalid" : "valid")
            }
        }
        let autocorrect = json["typedCharacterAutocorrection"]
        for example in log.array(autocorrect?["examples"], "typedCharacterAutocorrection.examples") {
            let typed = example["typed"]?.string ?? ""
            let corrected = String(typed.compactMap(PowerAuth.correctedCodeCharacter))
            log.expect(corrected == example["corrected"]?.string && corrected.count == typed.count, "autocorrect \(typed)",
                       expected: example["corrected"]?.string ?? "", got: corrected)
        }
        for typed in log.strings(autocorrect?["rejected"], "typedCharacterAutocorrection.rejected") {
            log.expect(typed.allSatisfy { PowerAuth.correctedCodeCharacter($0) == nil }, "autocorrect rejects \(typed)", expected: "rejected", got: "accepted")
        }
    }

    static func checkEncoding(_ json: JSONValue, _ log: inout CaseLog) {
        for (index, entry) in log.array(json["urlEncoding"]?["cases"], "urlEncoding.cases").enumerated() {
            let got: String
            if let inputHex = entry["inputHex"]?.string {
                guard let input = try? HexText.bytes(inputHex, field: "inputHex") else {
                    log.fail("urlEncoding[\(index)]", "", expected: "inputHex in hex", got: "not hex")
                    continue
                }
                got = PowerAuth.NormalizedData.formEncoded(bytes: input)
            } else {
                got = PowerAuth.NormalizedData.formEncoded(entry["input"]?.string ?? "")
            }
            log.expect(got == entry["expected"]?.string, "urlEncoding[\(index)]", expected: entry["expected"]?.string ?? "", got: got)
        }
        let normalization = json["getParameterNormalization"]
        let parameters = (normalization?["params"]?.object ?? [:]).map { ($0.key, $0.value.string ?? "") }
        let canonical = PowerAuth.NormalizedData.canonicalQuery(parameters)
        log.expect(canonical == normalization?["expectedCanonicalString"]?.string, "getParameterNormalization",
                   expected: normalization?["expectedCanonicalString"]?.string ?? "", got: canonical)
        let config = json["sdkConfigurationString"]
        let parsed = try? PowerAuth.Configuration(configurationString: config?["config"]?.string ?? "", baseURL: "https://example.com")
        let decoded = config?["decoded"]
        let masterKey = (decoded?["masterServerPublicKey"]?.string).flatMap { Data(base64Encoded: $0) }.map(Array.init)
        let same = parsed != nil && parsed?.applicationKey == decoded?["appKey"]?.string && parsed?.applicationSecret == decoded?["appSecret"]?.string
            && parsed?.masterServerPublicKey.x963Representation == masterKey
        log.expect(same, "sdkConfigurationString", expected: "appKey, appSecret, master key as decoded", got: parsed == nil ? "not parsed" : "different")
    }
}
