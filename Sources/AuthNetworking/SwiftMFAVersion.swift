// The one version every client and transport of this package names in its `User-Agent` (and the
// M-Pin `X-MIRACL-CLIENT` header): bumped here, and nowhere else, at a release.

/// The version of SwiftMFA that requests announce.
public enum SwiftMFAVersion {
    /// The release, e.g. `0.7`.
    public static let current = "0.7"

    /// `SwiftMFA/<current> (Linux; <component>)`: the `User-Agent` of a request sent by
    /// `component` (a transport or a client target name).
    public static func userAgent(component: String) -> String {
        "SwiftMFA/\(current) (Linux; \(component))"
    }
}
