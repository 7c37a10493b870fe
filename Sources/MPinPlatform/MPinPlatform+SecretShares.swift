// The answers that carry client-secret shares (docs/protocols/mpin.md §7.1 item 4, §7.2, §7.3).
// A share is half of the client secret: it is read from the body straight into `SecretBytes`
// (JSONSecretMember, Hex.decode(secret:)), so no `String` the program cannot wipe ever holds it.
// The other members are decoded with JSONDecoder, which also judges the whole body as JSON; the
// models leave the share members out, so JSONDecoder never makes text of them.

public import CryptoPrimitives
import FoundationEssentials
public import ProtocolSupport

extension MPinPlatform {
    /// `GET signatureURL/{mpinId}?regOTT=` (§7.1 item 4).
    public struct SignatureWire: Sendable {
        /// The first D-TA's client-secret share: the bytes the hex encodes (a G1 point, checked
        /// when the share is made of them).
        public let clientSecretShare: SecretBytes
        /// The query for the second D-TA.
        public let params: String

        /// Reads `{clientSecretShare, params}` from an answer's body. Throws
        /// `ProtocolError.Code.malformedInput` for a body that is not that JSON or a share
        /// that is not hex.
        public init(body: [UInt8]) throws(ProtocolError) {
            struct Members: Decodable { let params: String }
            params = try JSONResponse.decode(Members.self, from: body, what: "signature answer").params
            clientSecretShare = try MPinPlatform.requiredShare(spelled: ["clientSecretShare"], in: body, what: "signature answer")
        }
    }

    /// The second D-TA's `clientSecret` (§7.1 item 4), also `dvsClientSecret` (§7.2).
    public struct ClientSecretWire: Sendable {
        /// The share: the G1 point the hex encodes.
        public let clientSecret: SecretBytes?
        /// The DVS share: the G1 point the hex encodes.
        public let dvsClientSecret: SecretBytes?

        /// Reads `{clientSecret}` or `{dvsClientSecret}` from an answer's body. Throws
        /// `ProtocolError.Code.malformedInput` for a body that is not a JSON object or a share
        /// that is not hex.
        public init(body: [UInt8]) throws(ProtocolError) {
            struct Members: Decodable {
                init(from decoder: any Decoder) throws { _ = try decoder.container(keyedBy: SpelledKey.self) }   // an object
            }
            _ = try JSONResponse.decode(Members.self, from: body, what: "client secret")
            clientSecret = try MPinPlatform.share(spelled: ["clientSecret"], in: body, what: "client secret")
            dvsClientSecret = try MPinPlatform.share(spelled: ["dvsClientSecret"], in: body, what: "client secret")
        }
    }

    /// `POST /dvsregister` (§7.2): `cs2-url`, `mpin-id` and `dvs-cs1` (§7.2's list) or `cs2url`,
    /// `mpinId` and `dvsClientSecretShare` (§7.3's, which §7.2 says are exact).
    public struct DVSRegisterWire: Sendable {
        /// Where the second DVS share is.
        public let cs2URL: String
        /// The signing identity's M-Pin ID (hex).
        public let mpinID: String
        /// The first DVS share: the G1 point the hex encodes.
        public let dvsCS1: SecretBytes
        /// Which D-TAs issued the shares.
        public let dtas: String?

        /// Reads either spelling from an answer's body; a member given in both spellings must
        /// agree. Throws `ProtocolError.Code.malformedInput` for a body that is not that JSON
        /// or a share that is not hex.
        public init(body: [UInt8]) throws(ProtocolError) {
            struct Members: Decodable {
                let cs2URL: String, mpinID: String, dtas: String?
                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: SpelledKey.self)
                    cs2URL = try container.require(String.self, spelled: ["cs2url", "cs2-url"])
                    mpinID = try container.require(String.self, spelled: ["mpinId", "mpin-id"])
                    dtas = try container.decode(String.self, spelled: ["dtas"])
                }
            }
            let members = try JSONResponse.decode(Members.self, from: body, what: "DVS registration answer")
            (cs2URL, mpinID, dtas) = (members.cs2URL, members.mpinID, members.dtas)
            dvsCS1 = try MPinPlatform.requiredShare(spelled: ["dvsClientSecretShare", "dvs-cs1"], in: body, what: "DVS registration answer")
        }
    }

    /// The share under any of `names` (§7.2 spells members two ways), hex-decoded into secret
    /// bytes; nil when absent or null under all. Two spellings that disagree, a value that is
    /// not a string and one that is not hex are `ProtocolError.Code.malformedInput`.
    static func share(spelled names: [String], in body: [UInt8], what: String) throws(ProtocolError) -> SecretBytes? {
        var found: SecretBytes?
        for name in names {
            guard let text = try JSONSecretMember.value(at: [name], in: body, what: what) else { continue }
            let share: SecretBytes
            do { share = try Hex.decode(secret: text) } catch { throw ProtocolError(.malformedInput, "\(what): \(name) is not hex", cause: error) }
            if let found, found != share { throw ProtocolError(.malformedInput, "\(what): \(names.joined(separator: " and ")) disagree") }
            found = share
        }
        return found
    }

    /// The string member `name` of the JSON in `body` as secret bytes (a one-time token the
    /// client sends back); absent, null or not a string is `ProtocolError.Code.malformedInput`.
    package static func requiredSecret(_ name: String, in body: [UInt8], what: String) throws(ProtocolError) -> SecretBytes {
        guard let value = try JSONSecretMember.value(at: [name], in: body, what: what) else {
            throw ProtocolError(.malformedInput, "\(what): no \(name)")
        }
        return value
    }

    /// ``share(spelled:in:what:)``, required.
    static func requiredShare(spelled names: [String], in body: [UInt8], what: String) throws(ProtocolError) -> SecretBytes {
        guard let share = try share(spelled: names, in: body, what: what) else {
            throw ProtocolError(.malformedInput, "\(what): no \(names.joined(separator: " or "))")
        }
        return share
    }
}

extension MPinTrust {
    /// `GET /rps/v2/signature/{mpinId}` answer (§7.3).
    package struct SignatureWire: Sendable {
        /// The first DVS share: the G1 point the hex encodes.
        package let dvsClientSecretShare: SecretBytes
        /// Where the second share is.
        package let cs2url: String
        /// The curve the platform issues on, when it says.
        package let curve: String?
        /// Which D-TAs issued the shares.
        package let dtas: String

        /// Reads `{dvsClientSecretShare, cs2url, curve, dtas}` from an answer's body.
        package init(body: [UInt8]) throws(ProtocolError) {
            struct Members: Decodable { let cs2url: String, curve: String?, dtas: String }
            let members = try JSONResponse.decode(Members.self, from: body, what: "signature answer")
            (cs2url, curve, dtas) = (members.cs2url, members.curve, members.dtas)
            dvsClientSecretShare = try MPinPlatform.requiredShare(spelled: ["dvsClientSecretShare"], in: body, what: "signature answer")
        }
    }
}
