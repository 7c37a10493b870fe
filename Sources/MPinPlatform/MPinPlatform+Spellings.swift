// The member names the platform generations spell differently (docs/protocols/mpin.md §7.2 lists hyphenated
// names and defers to §7.3 for the exact ones; the recorded and current platforms use either):
// each answer is decoded accepting both spellings, and a value given twice must agree.

import FoundationEssentials

/// A coding key by name, for members with more than one spelling.
struct SpelledKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == SpelledKey {
    /// The member under any of `names` (absent or null under all: nil); two spellings that
    /// disagree are a decoding error, so no answer means two things.
    func decode<T: Decodable & Equatable>(_ type: T.Type, spelled names: [String]) throws -> T? {
        var found: T?
        for name in names {
            let key = SpelledKey(name)
            guard contains(key), try !decodeNil(forKey: key) else { continue }
            let value = try decode(T.self, forKey: key)
            if let found, found != value {
                throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\(names.joined(separator: " and ")) disagree")
            }
            found = value
        }
        return found
    }

    /// The member under one of `names`, required.
    func require<T: Decodable & Equatable>(_ type: T.Type, spelled names: [String]) throws -> T {
        guard let value = try decode(T.self, spelled: names) else {
            throw DecodingError.keyNotFound(SpelledKey(names[0]), .init(codingPath: codingPath, debugDescription: "none of \(names.joined(separator: ", "))"))
        }
        return value
    }

    /// The DVS registration token: `dvs-register-token` / `dvsRegisterToken` (§7.2) or
    /// `dvsRegister: {token}` (§7.3).
    func dvsRegisterToken() throws -> String? {
        let flat = try decode(String.self, spelled: ["dvs-register-token", "dvsRegisterToken"])
        let nested = try decode(DVSRegisterObject.self, spelled: ["dvsRegister"])?.token
        if let flat, let nested, flat != nested {
            throw DecodingError.dataCorruptedError(forKey: SpelledKey("dvsRegister"), in: self, debugDescription: "two different DVS registration tokens")
        }
        return flat ?? nested
    }
}

/// `dvsRegister: {token, curve}` (docs/protocols/mpin.md §7.3).
struct DVSRegisterObject: Decodable, Equatable { let token: String }

extension MPinPlatform.AuthenticateWire: Decodable {
    /// Decodes either generation's answer (docs/protocols/mpin.md §7.1 item 6, §7.2, §7.3).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SpelledKey.self)
        self.init(code: try container.decode(String.self, spelled: ["code"]), otp: try container.decode(String.self, spelled: ["otp"]),
                  expireTime: try container.decode(MPinPlatform.FlexibleTime.self, spelled: ["expireTime"]),
                  ttlSeconds: try container.decode(Int.self, spelled: ["ttlSeconds"]),
                  nowTime: try container.decode(MPinPlatform.FlexibleTime.self, spelled: ["nowTime"]),
                  dvsRegisterToken: try container.dvsRegisterToken())
    }
}

extension MPinPlatform.ConfirmationWire: Decodable {
    /// Decodes `{accessId, activationToken}` (§7.2) or `{accessId, actToken}` (§7.3).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SpelledKey.self)
        self.init(accessId: try container.decode(String.self, spelled: ["accessId"]),
                  activationToken: try container.require(String.self, spelled: ["activationToken", "actToken"]))
    }
}
