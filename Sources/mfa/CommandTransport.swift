// The transport `mfa` sends with: URLSessionTransport when built with the `URLSession` trait
// (the default: https with the system trust store), PlainHTTPTransport without it (the static
// build, docs/static-and-embedded.md: http:// only, no FoundationNetworking, no libcurl).

import AuthNetworking
import PlainHTTPTransport
#if URLSession
import URLSessionTransport
#endif

enum CommandTransport {
    /// Which transport this build of `mfa` has, for messages.
    #if URLSession
    static let name = "URLSessionTransport"
    #else
    static let name = "PlainHTTPTransport"
    #endif

    /// A transport to `baseURL` that logs errors only (a command prints its own).
    static func make(baseURL: String) -> any HTTPTransport {
        #if URLSession
        var configuration = URLSessionTransport.Configuration(baseURL: baseURL)
        configuration.logger = Logger(level: .errors)
        return URLSessionTransport(configuration: configuration)
        #else
        PlainHTTPTransport(configuration: PlainHTTPTransport.Configuration(baseURL: baseURL), logger: Logger(level: .errors))
        #endif
    }
}
