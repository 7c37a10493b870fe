// A request that carries what a log must never show (a PowerAuth signature header, a password
// and a PUK in the body), for the transport and logging tests.

public import ProtocolSupport

/// A PowerAuth-style signed request whose header and body hold secrets.
public enum SignedSampleRequest {
    /// The signature header's value.
    public static let secretHeader = "PowerAuth pa_signature=\"SECRET-SIGNATURE\""
    /// The JSON body, with a password and a PUK.
    public static let secretBody = Array(#"{"password":"SECRET-PASSWORD","puk":"1234567890"}"#.utf8)

    /// `POST pa/v3/token/create` with the signature header, a JSON body and a query to encode.
    public static func request() -> HTTPRequest {
        HTTPRequest(method: .post, path: "pa/v3/token/create", query: [HTTPHeader("a b", "c&d")],
                    headers: [HTTPHeader("X-PowerAuth-Authorization", secretHeader), HTTPHeader("Content-Type", "application/json")],
                    body: secretBody)
    }
}
