// Authorizations (docs/protocols/saltedge-v2.md §6.6–§6.7, §7.1, §9): the encrypted list items, their statuses,
// the decrypted model with its local expiry, and the answer to confirm / deny.

import CryptoPrimitives
public import FoundationEssentials
public import ProtocolSupport

extension SaltEdge {
    /// An authorization's status (§9, the iOS superset).
    public struct AuthorizationStatus: RawRepresentable, Sendable, Hashable, Decodable {
        /// The wire value.
        public let rawValue: String
        /// Creates a status.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Decodes the wire string.
        public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

        /// `pending`: waiting for the user.
        public static let pending = Self(rawValue: "pending")
        /// `processing`.
        public static let processing = Self(rawValue: "processing")
        /// `confirm_processing`: confirmed, being processed.
        public static let confirmProcessing = Self(rawValue: "confirm_processing")
        /// `deny_processing`: denied, being processed.
        public static let denyProcessing = Self(rawValue: "deny_processing")
        /// `confirmed` (final).
        public static let confirmed = Self(rawValue: "confirmed")
        /// `denied` (final).
        public static let denied = Self(rawValue: "denied")
        /// `error` (final).
        public static let error = Self(rawValue: "error")
        /// `time_out` (final).
        public static let timeOut = Self(rawValue: "time_out")
        /// `unavailable` (final).
        public static let unavailable = Self(rawValue: "unavailable")
        /// Gone: remove it from the list.
        public static let closed = Self(rawValue: "closed")

        /// Final statuses (iOS): nothing to decrypt or decide any more.
        public var isFinal: Bool { [.confirmed, .denied, .error, .timeOut, .unavailable].contains(self) }
    }

    /// A list or show item (§6.6). Items in a final status are not decrypted (as iOS).
    public struct EncryptedAuthorization: Sendable, Equatable, Decodable {
        /// The authorization id.
        public let id: String
        /// Its connection.
        public let connectionID: String
        /// Its status.
        public let status: AuthorizationStatus
        /// The encrypted authorization, absent for some final items.
        public let bundle: EncryptedBundle?

        /// Decrypts the authorization with the connection key. Throws `ProtocolError.Code.invalidArgument`
        /// for a final item (nothing to show) and the one decryption error when it does not decrypt.
        public func decrypt(with connectionKey: ConnectionKey) throws(ProtocolError) -> Authorization {
            guard !status.isFinal, let bundle else { throw ProtocolError(.invalidArgument, "final authorizations are not decrypted") }
            // The JSON parse is part of the bundle's one verdict (docs/protocols/saltedge-v2.md §3.3).
            let wire = try bundle.decrypt(Authorization.Wire.self, with: connectionKey)
            return Authorization(id: id, connectionID: connectionID, status: status, wire: wire)
        }

        enum CodingKeys: String, CodingKey {
            case id, connection_id, status, key, iv, data, algorithm
        }

        /// Decodes the wire object.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(FlexibleID.self, forKey: .id).value
            connectionID = try c.decode(FlexibleID.self, forKey: .connection_id).value
            status = try c.decode(AuthorizationStatus.self, forKey: .status)
            if let key = try c.decodeIfPresent(String.self, forKey: .key), let iv = try c.decodeIfPresent(String.self, forKey: .iv),
               let data = try c.decodeIfPresent(String.self, forKey: .data) {
                bundle = EncryptedBundle(key: key, iv: iv, data: data, algorithm: try c.decodeIfPresent(String.self, forKey: .algorithm))
            } else {
                bundle = nil
            }
        }

        /// Parses the list answer (§6.6): `{"data":[item, …]}`. An item whose `connection_id` is
        /// missing, null or empty is dropped, as Salt Edge's Android client drops it (§6.6): it
        /// belongs to no connection, and one such item must not hide the others. An item without
        /// a non-empty `id` still makes the list malformed.
        public static func list(from response: HTTPResponse) throws(ProtocolError) -> [EncryptedAuthorization] {
            try SaltEdge.requireSuccess(response)
            return try JSONResponse.decode(Envelope<[Listed]>.self, from: response.body, what: "authorization list").data.compactMap(\.item)
        }

        /// A list item: the authorization, or nil when it names no connection.
        private struct Listed: Decodable {
            let item: EncryptedAuthorization?

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                _ = try c.decode(FlexibleID.self, forKey: .id)   // an item without its own id is malformed, not dropped
                let named = try c.contains(.connection_id) && !c.decodeNil(forKey: .connection_id)
                    && c.decode(IDText.self, forKey: .connection_id).value != ""
                item = named ? try EncryptedAuthorization(from: decoder) : nil
            }
        }

        /// An identifier as text, integer or string, the empty string included.
        private struct IDText: Decodable {
            let value: String

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let number = try? container.decode(Int64.self) {  // the type probe FlexibleID makes
                    value = String(number)
                } else {
                    value = try container.decode(String.self)
                }
            }
        }

        /// Parses the show answer (§6.6): `{"data":item}`.
        public static func single(from response: HTTPResponse) throws(ProtocolError) -> EncryptedAuthorization {
            try SaltEdge.requireSuccess(response)
            return try JSONResponse.decode(Envelope<EncryptedAuthorization>.self, from: response.body, what: "authorization").data
        }
    }

    /// A decrypted authorization (§6.6, §7.1).
    public struct Authorization: Sendable, Equatable {
        /// The id.
        public let id: String
        /// Its connection.
        public let connectionID: String
        /// Its status when fetched.
        public let status: AuthorizationStatus
        /// The title to show.
        public let title: String
        /// What to show below the title (§7.1).
        public let description: AuthorizationDescription
        /// The opaque dynamic-linking code to echo on confirm / deny (§8); shown to nobody.
        public let authorizationCode: String?
        /// Creation time.
        public let createdAt: Date
        /// Expiry time; honoured locally (§9).
        public let expiresAt: Date

        /// The authorization from its decrypted JSON.
        init(id: String, connectionID: String, status: AuthorizationStatus, wire: Wire) {
            self.id = id
            self.connectionID = connectionID
            self.status = status
            title = wire.title
            description = wire.description
            authorizationCode = wire.authorization_code
            createdAt = wire.created_at.date
            expiresAt = wire.expires_at.date
        }

        /// Whether it has expired at `now`, even if the server still lists it (§9).
        public func isExpired(at now: Date) -> Bool { now >= expiresAt }

        struct Wire: Decodable {
            let title: String
            let description: AuthorizationDescription
            let authorization_code: String?
            let created_at: ISO8601Date
            let expires_at: ISO8601Date
        }
    }

    /// The `description` object (§7.1): any of text, HTML, a payment and extra details.
    public struct AuthorizationDescription: Sendable, Equatable, Decodable {
        /// Plain text.
        public let text: String?
        /// HTML.
        public let html: String?
        /// Payment details, as texts keyed by their wire names (`payee`, `amount`, …).
        public let payment: [String: JSONScalar]?
        /// Extra details (`action_date`, `device`, `location`, `ip`).
        public let extra: [String: JSONScalar]?
    }

    /// The answer to confirm / deny (§6.7): typically `confirm_processing` / `deny_processing`.
    public struct DecisionResult: Sendable, Equatable {
        /// The authorization id.
        public let id: String
        /// Its new status; poll until final.
        public let status: AuthorizationStatus

        /// Parses the response.
        public init(response: HTTPResponse) throws(ProtocolError) {
            try SaltEdge.requireSuccess(response)
            let wire = try JSONResponse.decode(Envelope<Wire>.self, from: response.body, what: "decision").data
            id = wire.id.value
            status = wire.status
        }

        private struct Wire: Decodable {
            let id: FlexibleID
            let status: AuthorizationStatus
        }
    }
}
