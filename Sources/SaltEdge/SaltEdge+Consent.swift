// Consents granted to third parties (docs/protocols/saltedge-v2.md §6.9): the encrypted list, the decrypted
// model and the revoke answer.

import CryptoPrimitives
public import FoundationEssentials
public import ProtocolSupport

extension SaltEdge {
    /// A consent list item, still encrypted to the connection key.
    public struct EncryptedConsent: Sendable, Equatable, Decodable {
        /// The consent id.
        public let id: String
        /// Its connection.
        public let connectionID: String
        /// The encrypted consent (its `algorithm`, when present, must be AES-256-CBC).
        public let bundle: EncryptedBundle

        enum CodingKeys: String, CodingKey {
            case id, connection_id, key, iv, data, algorithm
        }

        /// Decodes the wire object.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(FlexibleID.self, forKey: .id).value
            connectionID = try c.decode(FlexibleID.self, forKey: .connection_id).value
            bundle = EncryptedBundle(key: try c.decode(String.self, forKey: .key), iv: try c.decode(String.self, forKey: .iv),
                                     data: try c.decode(String.self, forKey: .data),
                                     algorithm: try c.decodeIfPresent(String.self, forKey: .algorithm))
        }

        /// Parses `{"data":[item, …]}`.
        public static func list(from response: HTTPResponse) throws(ProtocolError) -> [EncryptedConsent] {
            try SaltEdge.requireSuccess(response)
            return try JSONResponse.decode(Envelope<[EncryptedConsent]>.self, from: response.body, what: "consent list").data
        }

        /// Decrypts the consent. An unsupported `algorithm` throws `ProtocolError.Code.unsupported`
        /// (as Android), a bundle that does not decrypt the one decryption error.
        public func decrypt(with connectionKey: ConnectionKey) throws(ProtocolError) -> Consent {
            // The JSON parse is part of the bundle's one verdict (docs/protocols/saltedge-v2.md §3.3).
            let wire = try bundle.decrypt(Consent.Wire.self, with: connectionKey)
            return Consent(id: id, connectionID: connectionID, wire: wire)
        }
    }

    /// The kind of consent (§6.9).
    public struct ConsentType: RawRepresentable, Sendable, Hashable, Decodable {
        /// The wire value.
        public let rawValue: String
        /// Creates a type.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Decodes the wire string.
        public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
        /// Account information.
        public static let aisp = Self(rawValue: "aisp")
        /// A future-dated payment.
        public static let pispFuture = Self(rawValue: "pisp_future")
        /// A recurring payment.
        public static let pispRecurring = Self(rawValue: "pisp_recurring")
    }

    /// A decrypted consent (§6.9).
    public struct Consent: Sendable, Equatable {
        /// An account the consent covers.
        public struct Account: Sendable, Equatable, Decodable {
            /// Display name.
            public let name: String
            /// Account number, if given.
            public let accountNumber: String?
            /// Sort code, if given.
            public let sortCode: String?
            /// IBAN, if given.
            public let iban: String?

            enum CodingKeys: String, CodingKey {
                case name, accountNumber = "account_number", sortCode = "sort_code", iban
            }
        }

        /// The consent id (from the list item).
        public let id: String
        /// Its connection.
        public let connectionID: String
        /// The user id, if given.
        public let userID: String?
        /// The third party's name.
        public let tppName: String
        /// The kind of consent.
        public let consentType: ConsentType
        /// The accounts covered.
        public let accounts: [Account]
        /// Whether balances are shared (`nil` when not said).
        public let sharesBalance: Bool?
        /// Whether transactions are shared (`nil` when not said).
        public let sharesTransactions: Bool?
        /// When it was granted.
        public let createdAt: Date
        /// When it expires.
        public let expiresAt: Date

        init(id: String, connectionID: String, wire: Wire) {
            self.id = id
            self.connectionID = connectionID
            userID = wire.user_id?.value
            tppName = wire.tpp_name
            consentType = wire.consent_type
            accounts = wire.accounts
            sharesBalance = wire.shared_data?.balance
            sharesTransactions = wire.shared_data?.transactions
            createdAt = wire.created_at.date
            expiresAt = wire.expires_at.date
        }

        struct Wire: Decodable {
            struct SharedData: Decodable {
                let balance: Bool?
                let transactions: Bool?
            }

            let user_id: FlexibleID?
            let tpp_name: String
            let consent_type: ConsentType
            let accounts: [Account]
            let shared_data: SharedData?
            let created_at: ISO8601Date
            let expires_at: ISO8601Date
        }
    }

    /// Parses the revoke-consent answer `{"data":{"id":…}}` and returns the id (§6.9).
    public static func revokedConsentID(from response: HTTPResponse) throws(ProtocolError) -> String {
        try requireSuccess(response)
        return try JSONResponse.decode(Envelope<ConsentIDWire>.self, from: response.body, what: "consent id").data.id.value
    }

    private struct ConsentIDWire: Decodable {
        let id: FlexibleID
    }
}
