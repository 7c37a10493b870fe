// The URL policy against the rules it states, case by case: https to a host whose name has a
// dot; http and dot-less names only to loopback with the opt-out; never a URL carrying
// `user:password@` (RFC 9110 §4.2.4), and never that part — nor a query — in a message.

import ProtocolSupport
import Testing

@Suite struct URLPolicyTests {
    /// (URL, permitted by `.httpsOnly`, permitted by `.insecureAllowingPlainHTTPToLoopback`).
    static let cases: [(String, Bool, Bool)] = [
        ("https://bank.example", true, true),
        ("https://bank.example:8443/api?x=1", true, true),
        ("HTTPS://Bank.Example/", true, true),
        ("http://bank.example", false, false),
        ("ftp://bank.example", false, false),
        ("https://intranet", false, false),
        ("https://.example", false, false),
        ("https://bank.example.", false, false),
        ("http://127.0.0.1:8080", false, true),
        ("http://127.9.9.9", false, true),
        ("http://128.0.0.1", false, false),
        ("http://localhost:1", false, true),
        ("https://localhost", false, true),
        ("http://[::1]:80/x", false, true),
        ("https://user:secret@bank.example", false, false),
        ("https://user@bank.example/path", false, false),
        ("https://@bank.example", false, false),
        ("http://user:secret@127.0.0.1:8080", false, false),
        ("https://bank.example/path@with-at", true, true),
        ("https://bank.example/?next=a@b", true, true),
        ("not a url", false, false),
        ("https:///path", false, false),
    ]

    @Test(arguments: cases) func eachURLUnderEachPolicy(url: String, httpsOnly: Bool, loopback: Bool) {
        #expect(URLPolicy.httpsOnly.permits(url) == httpsOnly, "\(url) under httpsOnly")
        #expect(URLPolicy.insecureAllowingPlainHTTPToLoopback.permits(url) == loopback, "\(url) under the loopback opt-out")
    }

    @Test func userInformationIsRefusedEvenWhenEveryHTTPIsAllowed() {
        #expect(!URLPolicy.insecureAllowingPlainHTTPForReplayTests.permits("http://u:p@10.0.0.1"))
        #expect(URLPolicy.insecureAllowingPlainHTTPForReplayTests.permits("http://10.0.0.1"))
    }

    @Test func messagesNeverCarryThePassword() {
        #expect(URLPolicy.displayURL("https://user:secret@bank.example:8443/a@b?c=d#e") == "https://bank.example:8443/a@b")
        #expect(URLPolicy.withoutUserInformation("https://user:secret@bank.example/a?c=d") == "https://bank.example/a?c=d")
        #expect(!URLPolicy.refusal(of: "user:secret@bank").contains("secret"))
        #expect(URLPolicy.displayURL("https://bank.example/x") == "https://bank.example/x")
        #expect(URLPolicy.displayURL("no scheme@here") == "no scheme@here")
        #expect(URLPolicy.refusal(of: "https://user:secret@bank.example")
                == "https://bank.example is refused by the URL policy: it carries a user:password@ part")
        #expect(URLPolicy.refusal(of: "http://bank.example") == "http://bank.example is refused by the URL policy (https to a named host only)")
        let long = "https://" + String(repeating: "a", count: 300) + ".example"
        #expect(URLPolicy.displayURL(long).count == 201)
    }
}
