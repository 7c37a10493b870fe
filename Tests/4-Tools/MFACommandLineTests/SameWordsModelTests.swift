// The same words in every SDK family (docs/design.md §3): `configure`, `status` and `remove` exist in
// PowerAuth, MIRACL MFA, Salt Edge and CM; the loopback opt-out is a `configure` option only
// (stored, never asked again); the one a verb acts on is a positional argument; PowerAuth's
// `call` takes a method and repeated query parameters; Salt Edge shows one authorization.

import MFACommandLine
import Testing

@Suite struct SameWordsModelTests {
    let model = MFACommands.model

    func options(_ arguments: [String]) throws -> CommandOptions {
        guard case .run(_, _, let options) = try model.parse(arguments) else { throw UsageError(description: "not a run") }
        return options
    }

    func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try model.parse(arguments)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func everySDKFamilyHasConfigureStatusAndRemove() {
        for name in ["powerauth", "mpin", "saltedge", "cm"] {
            let verbs = Set(model.families.first { $0.name == name }?.verbs.map(\.name) ?? [])
            #expect(verbs.isSuperset(of: ["configure", "status", "remove"]), "\(name): \(verbs.sorted())")
        }
        // The old words are gone, not kept as a second spelling.
        #expect(usageError(["saltedge", "revoke", "1"])?.hasPrefix("unknown verb revoke") == true)
        #expect(usageError(["mpin", "delete", "a@example.com"])?.hasPrefix("unknown verb delete") == true)
        // A verb's target is its argument: the user of every M-Pin verb, a token's name, the
        // provider a store moves to; the backend is a base URL as in every other family.
        #expect(usageError(["mpin", "authenticate", "--user", "a@example.com", "--otp"]) == "unknown option --user")
        #expect(usageError(["powerauth", "token", "create", "--name", "t1"]) == "unknown option --name")
        #expect(usageError(["keys", "migrate", "--to", "file"]) == "unknown option --to")
        #expect(usageError(["mpin", "configure", "--backend", "https://mfa.example.com"]) == "unknown option --backend")
        #expect(usageError(["saltedge", "consents", "--revoke", "7"]) == "unknown option --revoke")
    }

    @Test func theLoopbackOptOutIsGivenToConfigureOnly() throws {
        for family in ["powerauth", "mpin", "saltedge", "cm"] {
            let configure = model.families.first { $0.name == family }?.verbs.first { $0.name == "configure" }
            #expect(configure?.options.contains { $0.name == "--allow-http-loopback" } == true, "\(family)")
            #expect(usageError([family, "status", "--allow-http-loopback"]) == "unknown option --allow-http-loopback", "\(family)")
        }
        #expect(usageError(["saltedge", "connections", "--allow-http-loopback"]) == "unknown option --allow-http-loopback")
        #expect(try options(["saltedge", "configure", "--allow-http-loopback"]).flags.contains("--allow-http-loopback"))
    }

    @Test func removeTakesThePositionalIDWhereAFamilyHasSeveral() throws {
        #expect(try options(["mpin", "remove", "alice@example.com"]).positional == ["alice@example.com"])
        #expect(try options(["saltedge", "remove", "333", "--local"]).positional == ["333"])
        #expect(usageError(["mpin", "remove"]) == "user-id is required")
        #expect(usageError(["saltedge", "remove"]) == "connection-id is required")
        #expect(try options(["cm", "remove", "--local"]).flags.contains("--local"))
        #expect(try options(["powerauth", "remove", "--local", "--instance", "b"]).values["--instance"] == "b")
    }

    @Test func callTakesAMethodAndRepeatedQueryParameters() throws {
        let parsed = try options(["powerauth", "call", "--path", "/api/items", "--method", "GET", "--query", "b=2", "--query", "a=1", "--uri-id", "/x"])
        #expect(parsed.values["--method"] == "GET" && parsed.repeated["--query"] == ["b=2", "a=1"])
        #expect(usageError(["powerauth", "call", "--path", "/p", "--method", "GET", "--method", "PUT"]) == "--method is given twice")
        #expect(usageError(["powerauth", "call", "--path", "/p", "--qeury", "a=1"]) == "unknown option --qeury")
    }

    @Test func saltEdgeShowsOneAuthorization() throws {
        #expect(try options(["saltedge", "show", "42", "--timeout", "5", "--interval", "0.5"]).positional == ["42"])
        #expect(usageError(["saltedge", "show"]) == "authorization-id is required")
        #expect(usageError(["saltedge", "show", "42", "--watch"]) == "unknown option --watch")
    }
}
