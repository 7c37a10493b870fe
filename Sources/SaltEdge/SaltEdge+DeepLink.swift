// Deep links and QR codes (docs/protocols/saltedge-v2.md §11): connect, instant action v2, and instant action v1
// for recognition only.

public import ProtocolSupport

extension SaltEdge {
    /// A parsed `authenticator://` deep link (QR codes carry the same strings).
    public enum DeepLink: Sendable, Equatable {
        /// Connect to a provider: fetch `configurationURL`, pass `connectQuery` through verbatim.
        case connect(configurationURL: String, connectQuery: String?, apiVersion: Int)
        /// Instant action, API v2: create an authorization for `actionID` of `providerID`.
        case instantAction(actionID: String, providerID: String, returnTo: String?)
        /// Instant action of API v1. Recognised so the caller can explain it; v1 is not supported.
        case legacyInstantAction(actionUUID: String, connectURL: String, returnTo: String?)

        /// Parses `link`. Throws `ProtocolError.Code.invalidDeepLink` for anything else: a link
        /// without the required parameters, or text that is not a link; and
        /// `ProtocolError.Code.insecureURL` for a configuration URL that `urlPolicy` refuses (by
        /// default anything but `https` to a host whose name has a dot: docs/protocols/saltedge-v2.md §11, as
        /// Android; the provider key is fetched from there).
        public init(parsing link: String, urlPolicy: URLPolicy = .httpsOnly) throws(ProtocolError) {
            let trimmed = link.trimmingASCIIWhitespace
            guard let (base, query) = URLText.split(trimmed),
                  let components = URLText.components(of: base), components.scheme == "authenticator" else {
                throw ProtocolError(.invalidDeepLink, "not an authenticator:// link")
            }
            func value(_ name: String) -> String? {
                query.first { $0.name == name }.flatMap { $0.value.isEmpty ? nil : $0.value }
            }
            switch components.path.last {
            case "connect":
                guard let configuration = value("configuration"), let target = URLText.components(of: configuration) else {
                    throw ProtocolError(.invalidDeepLink, "connect link without a configuration URL")
                }
                guard urlPolicy.permits(configuration) else {
                    throw ProtocolError(refusing: configuration, in: "connect link: the configuration URL")
                }
                self = .connect(configurationURL: configuration, connectQuery: value("connect_query"),
                                apiVersion: Self.apiVersion(ofConfigurationPath: target.path))
            case "action":
                if value("api_version") == "2" || value("action_id") != nil {
                    guard let action = value("action_id"), let provider = value("provider_id") else {
                        throw ProtocolError(.invalidDeepLink, "instant action link needs action_id and provider_id")
                    }
                    self = .instantAction(actionID: action, providerID: provider, returnTo: value("return_to"))
                } else {
                    guard let uuid = value("action_uuid"), let connect = value("connect_url") else {
                        throw ProtocolError(.invalidDeepLink, "v1 instant action link needs action_uuid and connect_url")
                    }
                    self = .legacyInstantAction(actionUUID: uuid, connectURL: connect, returnTo: value("return_to"))
                }
            default:
                throw ProtocolError(.invalidDeepLink, "unknown link action")
            }
        }

        /// The API version named by a configuration URL's path: the segment after
        /// `authenticator`, when it reads `v<N>`; otherwise 1 (docs/protocols/saltedge-v2.md §11).
        public static func apiVersion(ofConfigurationURL url: String) -> Int {
            apiVersion(ofConfigurationPath: URLText.components(of: url)?.path ?? [])
        }

        static func apiVersion(ofConfigurationPath path: [String]) -> Int {
            guard let index = path.firstIndex(of: "authenticator"), index + 1 < path.count else { return 1 }
            let segment = path[index + 1]
            guard segment.hasPrefix("v"), let version = Int(segment.dropFirst()), version > 0 else { return 1 }
            return version
        }
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces, tabs, CRs and LFs.
    var trimmingASCIIWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
