// Every command of `mfa`, declared once (docs/design.md §3): the families' verbs and options, from
// which the parser, the help at every level and docs/cli-reference.md come (CommandModel*.swift).
// The same option means the same in every family: `--store`, `--json`, `--allow-http-loopback`.
// The same verb means the same in every SDK family: `configure` stores the family's settings
// (the loopback opt-out among them, used by every later verb and never asked again), `status`
// prints what is stored here (and the server's view where there is a registration to ask about),
// `remove` deletes a registration (on the server too where there is one there, unless `--local`).
// The one a verb acts on is a positional argument (`remove <connection-id>`, `show <authorization-id>`,
// `remove <user-id>`); PowerAuth keeps one activation per `--instance`, CM one device per store.

/// The declarations of `mfa`.
public enum MFACommands {
    static let json = OptionSpec.flag("--json", "machine-readable output: one JSON document per result, errors too")
    static let store = OptionSpec.value("--store", "DIR", "the secure store (default $XDG_DATA_HOME/swiftmfa or ~/.local/share/swiftmfa)")
    static let loopback = OptionSpec.flag("--allow-http-loopback",
                                          "accept http:// to 127.0.0.1 / localhost (test servers only; stored: later verbs use it)")
    static let local = OptionSpec.flag("--local", "forget it on this device only (the server is not told)")
    static let caFile = OptionSpec.value("--ca-file", "F", "trust the CA certificates of this PEM file instead of the system's ($SSL_CERT_FILE)")
    static let pinnedKey = OptionSpec.value("--pinned-key", "sha256//BASE64",
                                            "require the server's key: the SHA-256 of its SubjectPublicKeyInfo, as curl's --pinnedpubkey "
                                            + "(alone it authenticates the server; with --ca-file both must hold)", repeatable: true)
    static let exitNote = "Exit status: 0 ok, 1 refused by the server, 2 usage, 3 transport or store, 4 wrong state (nothing configured, no activation, no such item)."
    static let secretNote = "Secrets (passwords, PINs, codes, QR secrets) never come from an argument, which every local user can read: "
        + "from the file `NAME-file F` names (mode 0600; a file others may read is refused), else from the terminal without echo, "
        + "else from a line of standard input (`NAME -`)."
    static let password = OptionSpec.secret("--password", "the password (else the terminal or standard input)")
    static let factors = OptionSpec.value("--factors", "possession|possession_knowledge", "which factors sign (default possession_knowledge)")
    static let bodyFile = OptionSpec.value("--body-file", "F", "the request body")
    static let dataText = OptionSpec.value("--data", "TEXT", "the data, as text (its UTF-8 bytes)")
    static let dataFile = OptionSpec.value("--data-file", "F", "the data, from a file (instead of --data)")
    static let connection = OptionSpec.value("--connection", "ID", "the connection (default: the only one)")
    static let watch = OptionSpec.flag("--watch", "keep polling and print every change")
    static let interval = OptionSpec.value("--interval", "SECONDS", "seconds between polls with --watch (0.1-86400, default 3)")
    static let pin = OptionSpec.secret("--pin", "the PIN (else the terminal or standard input)")
    static let accessCode = OptionSpec.value("--access-code", "C", "the browser session's access code")
    static let keyProvider = OptionSpec.value("--key-provider", "PROVIDER",
                                              "file, passphrase or pkcs11:URI: the key that opens the store (as mfa keys use)")

    /// The whole model.
    public static let model = CommandModel(tool: "mfa", summary: "SwiftMFA from a shell: vector suites, throughput, and the five MFA clients.",
                                           families: [vectors, acvp, bench, selftest, generate, powerAuth, saltEdge, cm, mpin, keys])

    static let vectors = FamilySpec(command: VerbSpec(
        "vectors", "Run test-vector files (Wycheproof, CAVP, ACVP, PowerAuth, Milagro, Salt Edge, CM, ours) against the engine",
        arguments: ["[PATH...]"], requiredArguments: 0,
        options: [json, .flag("--verbose", "say why each skipped case was skipped"),
                  .value("--junit", "FILE", "also write a JUnit XML report (one testsuite per file, one testcase per case)")]),
        notes: ["With no PATH: Vectors/, ../shared/vectors when present, and every directory in $MFA_VECTORS.",
                "Exit status: 0 when nothing failed and something passed, 1 on any failure, 2 usage."])

    static let acvp = FamilySpec("acvp", "A lab's ACVP workflow: answer a prompt file, check a response against expected results", verbs: [
        VerbSpec("respond", "Write the response file an ACVP server expects for PROMPT", arguments: ["PROMPT"],
                 options: [.value("--output", "FILE", "where to write the response (default: standard output)"),
                           .value("-o", "FILE", "the same as --output")]),
        VerbSpec("check", "Compare a response file with expected results (the IUT's random keys and signatures are validated against the prompt)",
                 arguments: ["RESPONSE", "EXPECTED"],
                 options: [json, .value("--prompt", "PROMPT", "the prompt, for validating random answers (default: prompt.json beside EXPECTED)")]),
    ], notes: ["Exit status: 0 all cases agree, 1 any case differs, 2 usage or unreadable file."])

    static let bench = FamilySpec(command: VerbSpec(
        "bench", "Measure the engine's throughput: warm-up, rounds of at least --min-time, the median as ops/s, µs/op, MB/s",
        options: [json, .value("--filter", "TEXT", "only rows whose name contains TEXT (with --iterations: exact names, A|B)"),
                  .value("--min-time", "SECONDS", "the least time per round (0.001-3600, default 0.2)"),
                  .value("--threads", "N", "N threads at once; the aggregate ops/s (1-1024)"),
                  .flag("--against-processes", "with --threads N: also N processes, and threads as a fraction of them"),
                  .value("--iterations", "N", "run each named row N times untimed, for callgrind"),
                  .value("--key-provider", "PROVIDER", "file, passphrase or pkcs11:URI: time a PowerAuth 2FA signature and a store open on a throw-away store keyed by it (the PIN from the URI's pin-source or the terminal)")]),
        notes: ["Row names are layer/algorithm/op[/size], e.g. p256/ecdsa/sign, aes128/cbc/encrypt/1KiB."])

    static let selftest = FamilySpec(command: VerbSpec("selftest", "Run the engine's known-answer self-tests", options: [json]))

    static let generate = FamilySpec(command: VerbSpec(
        "generate", "Print a generated source table: p256-tables or bn254cx-constants", arguments: ["TABLE"]))

    static let powerAuth = FamilySpec("powerauth", "PowerAuth 3.x: activate this device, check its status, sign requests, call your API, use the vault",
                                      sharedOptions: [store, .value("--instance", "NAME", "the activation namespace (default \"default\")"), json, caFile, pinnedKey],
                                      verbs: [
        VerbSpec("configure", "Store the application's configuration string and the server's base URL", options: [
            .secret("--config-string", "the configuration string (APP_KEY, APP_SECRET, the master server key)"),
            .required("--base-url", "URL", "the PowerAuth server (https; http only to loopback with --allow-http-loopback)"),
            .value("--protocol", "VERSION", "3.0-3.3 for new activations (default 3.3)"), loopback, keyProvider]),
        VerbSpec("activate", "Activate with an activation code (its signature is checked first), then set the password", options: [
            .secret("--code", "the activation code CODE#SIGNATURE"), .value("--name", "NAME", "the activation's name on the server"), password]),
        VerbSpec("status", "What is stored (configured? the activation's id) and, when activated, the server's status; "
                 + "a counter ahead of the server is synchronised or reported as a deadlock"),
        VerbSpec("sign", "Print the X-PowerAuth-Authorization header for a request", options: [
            .required("--method", "M", "GET, POST, PUT or DELETE"), .required("--uri-id", "ID", "the request's URI identifier"), bodyFile, factors, password]),
        VerbSpec("call", "Send a signed, token-signed or end-to-end encrypted request to your API", options: [
            .required("--path", "P", "the request path"), .value("--method", "GET|POST|PUT|DELETE", "the request's method (default POST)"),
            .value("--query", "K=V", "a query parameter; a signed GET signs their canonical form, which the SDK builds", repeatable: true),
            .value("--body-file", "F", "the request object (JSON), sent as {\"requestObject\": …}; none for a GET"),
            .value("--uri-id", "ID", "sign with this URI identifier"),
            .value("--token", "NAME", "sign with this token instead (made by token create; no password)"),
            .value("--encrypt", "application|activation", "end-to-end encryption scope (POST without --query)"),
            factors, password]),
        VerbSpec("token", "Create or remove a token", verbs: [
            VerbSpec("create", "Create the token NAME", arguments: ["name"], options: [factors, password]),
            VerbSpec("remove", "Remove the token NAME", arguments: ["name"], options: [factors, password]),
        ]),
        VerbSpec("change-password", "Change the password (checked by the server first)", options: [
            password, .secret("--new-password", "the new password (else the terminal or standard input)")]),
        VerbSpec("remove", "Remove the activation (on the server too, unless --local)", options: [local, password]),
        VerbSpec("fetch-encryption-key", "Unlock the vault with the password and derive the encryption key of --index (fetchEncryptionKey); "
                 + "printed only with --reveal", options: [
            .required("--index", "N", "the key's index, 0-18446744073709551615: one per purpose, the same index gives the same key"),
            .flag("--reveal", "print the key (Base64): keep the output from logs and other users"), password]),
        VerbSpec("sign-with-device-key", "Unlock the vault with the password and sign data with the device private key: "
                 + "ECDSA P-256 SHA-256, DER in Base64 (signDataWithDevicePrivateKey)", options: [dataText, dataFile, password]),
        VerbSpec("offline-signature", "Compute the code to type for data and a nonce received out of band (offlineSignature; "
                 + "nothing is sent, a counter step is spent)", options: [
            dataText, dataFile, .required("--nonce", "NONCE", "the operation's nonce (Base64 of 16 bytes)"),
            .value("--uri-id", "ID", "the URI identifier (default /operation/authorize/offline)"), factors, password]),
        VerbSpec("biometry", "Add or remove the biometry factor for an app that signs with it through the SDK (on Linux: a 16-byte key kept outside the store; mfa's own verbs sign with possession and knowledge)", verbs: [
            VerbSpec("add", "Unlock the vault with the password and add the factor unlocked by the given key (addBiometryFactor)", options: [
                .secret("--biometry-key", "the key: 32 hex digits, e.g. from `openssl rand -hex 16` (keep it off the store's disk)"), password]),
            VerbSpec("remove", "Forget the biometry factor on this device (removeBiometryFactor; the server is not told)"),
        ]),
        VerbSpec("recovery", "The recovery code and PUK of this activation, and recovery postcards", verbs: [
            VerbSpec("show", "Unlock the vault with the password and open the recovery code and PUK (activationRecoveryData); "
                     + "printed only with --reveal", options: [
                .flag("--reveal", "print the recovery code and PUK: keep the output from logs and other users"), password]),
            VerbSpec("confirm", "Confirm a recovery postcard's code (confirmRecoveryCode); already confirmed is not an error", options: [
                .secret("--code", "the recovery code (an R: prefix is allowed)"), password]),
        ]),
    ], notes: [secretNote, exitNote])

    static let saltEdge = FamilySpec("saltedge", "Salt Edge Authenticator v2: connect to a bank, watch and confirm authorizations, consents",
                                     sharedOptions: [store, json, caFile, pinnedKey], verbs: [
        VerbSpec("configure", "Store the settings every later verb uses (the loopback opt-out; nothing is sent)", options: [loopback]),
        VerbSpec("status", "What is stored: configured? the loopback opt-out, the connections"),
        VerbSpec("connect", "Create a connection from the bank's deep link; prints the page to open", arguments: ["deep-link"]),
        VerbSpec("complete", "Finish a connection with the redirect the bank sent", arguments: ["connection-id", "redirect-url"]),
        VerbSpec("connections", "List the connections"),
        VerbSpec("rename", "Rename a connection", arguments: ["connection-id", "name"]),
        VerbSpec("authorizations", "List (or watch) pending authorizations", options: [connection, watch, interval]),
        VerbSpec("show", "One authorization; waits (bounded) while it is being processed, then prints it or its final status",
                 arguments: ["authorization-id"], options: [connection, .value("--timeout", "SECONDS", "the longest wait (0.1-3600, default 30)"),
                                                            .value("--interval", "SECONDS", "seconds between fetches while processing (0.1-60, default 3)")]),
        VerbSpec("confirm", "Confirm an authorization", arguments: ["authorization-id"], options: [connection]),
        VerbSpec("deny", "Deny an authorization", arguments: ["authorization-id"], options: [connection]),
        VerbSpec("action", "Submit an instant action from its deep link", arguments: ["deep-link"], options: [connection]),
        VerbSpec("consents", "List the consents given through a connection", options: [connection]),
        VerbSpec("revoke-consent", "Revoke a consent (at the bank)", arguments: ["consent-id"], options: [connection]),
        VerbSpec("remove", "Remove a connection (revoked at the bank too, unless --local)", arguments: ["connection-id"], options: [local]),
    ], notes: [exitNote])

    static let cm = FamilySpec("cm", "CM Authenticator: register this device, link environments, approve or deny requests",
                               sharedOptions: [store, json, caFile, pinnedKey], verbs: [
        VerbSpec("configure", "Store the service URL and the key its certificate list is signed with", options: [
            .required("--base-url", "URL", "the CM service"), .value("--list-key-file", "F", "the list-signing public key (DER or PEM)"),
            .flag("--no-pinning", "do not pin certificates (an explicit opt-out)"), loopback,
            .value("--app-key", "KEY", "the app key sent at registration"), keyProvider]),
        VerbSpec("register", "Register by phone (the service sends an SMS), then finish with the SMS code", options: [
            .value("--phone", "NUMBER", "start: the phone number, e.g. +31601234567"), .secret("--code", "finish: the SMS code")]),
        VerbSpec("status", "What is stored (configured? the device id, the environments) and, when registered, the server's status"),
        VerbSpec("environment", "Link, list or remove environments", verbs: [
            VerbSpec("add", "Link an environment from its QR text <id>,<secret> (a secret: file or standard input)", options: [
                .secret("--qr", "the QR text <id>,<secret> (else the terminal or standard input)")]),
            VerbSpec("list", "List the linked environments"),
            VerbSpec("remove", "Unlink an environment", arguments: ["environment-id"]),
        ]),
        VerbSpec("requests", "List (or watch) pending authentication requests", options: [watch, interval]),
        VerbSpec("approve", "Approve a request", arguments: ["request-id"]),
        VerbSpec("deny", "Deny a request", arguments: ["request-id"]),
        VerbSpec("remove", "Remove the device's registration: every environment unlinked on the server (unless --local), then forgotten here",
                 options: [local]),
    ], notes: [secretNote, exitNote])

    static let mpin = FamilySpec("mpin", "MIRACL MFA (M-Pin): register a user with a PIN, authenticate, sign",
                                 sharedOptions: [store, json, caFile, pinnedKey], verbs: [
        VerbSpec("configure", "Store the platform's backend (or find it from a QR text)", options: [
            .value("--base-url", "URL", "the platform's backend"), .value("--qr", "TEXT", "a QR text naming the backend"),
            .value("--client-id", "ID", "the OIDC client id"), .value("--trusted-domain", "DOMAIN", "a domain the platform may send the client to"),
            loopback, keyProvider]),
        VerbSpec("status", "What is stored: configured? the backend, the loopback opt-out, the users"),
        VerbSpec("service", "The service behind a QR text", arguments: ["qr-text"]),
        VerbSpec("session", "The browser session behind an access code", arguments: ["access-code"]),
        VerbSpec("verify", "Start verifying an identity (an e-mail address): the platform e-mails a code", arguments: ["user-id"], options: [
            accessCode, .value("--device-name", "NAME", "this device's name")]),
        VerbSpec("confirm", "Confirm the e-mailed code; prints the activation token", arguments: ["user-id"],
                 options: [.secret("--code", "the e-mailed code")]),
        VerbSpec("register", "Register (or resume) with an activation token or registration code, then set the PIN", arguments: ["user-id"], options: [
            accessCode, .secret("--with-code", "the activation token or registration code"), pin,
            .value("--pin-length", "N", "the PIN's number of digits (1-9)"), .value("--device-name", "NAME", "this device's name")]),
        VerbSpec("users", "List the registered users", options: [.flag("--all", "also users that are not registered yet")]),
        VerbSpec("authenticate", "Authenticate a user to a session, an authorization URL, an OTP or a registration code", arguments: ["user-id"], options: [
            accessCode, .value("--qr", "TEXT", "the QR text of a session"), .value("--authorization-url", "URL", "an OIDC authorization URL"),
            .flag("--otp", "print a one-time password"), .flag("--registration-code", "print a registration code for another device"), pin]),
        VerbSpec("signing-register", "Register a signing identity (DVS) for a user", arguments: ["user-id"], options: [
            pin, .secret("--signing-pin", "the signing PIN (else the terminal or standard input)")]),
        VerbSpec("sign", "Sign a document hash with the user's signing identity", arguments: ["user-id"], options: [
            .required("--hash", "HEX", "the document's hash"), .value("--timestamp", "UNIX-SECONDS", "the signature time (default now)"), pin]),
        VerbSpec("remove", "Remove a user from this device (the platform keeps no per-device record to revoke)", arguments: ["user-id"]),
    ], notes: [secretNote, "Exit status: 0 ok, 1 refused by the platform, 2 usage, 3 transport or store, 4 wrong state (nothing configured, no such user)."])

    static let keys = FamilySpec("keys", "The key that opens the secure store: a key file, a passphrase, or a PKCS #11 token (TPM, HSM)",
                                 sharedOptions: [store, json], verbs: [
        VerbSpec("use", "Choose the store's key provider: file, passphrase or pkcs11:URI (a store with records: migrate)", arguments: ["PROVIDER"]),
        VerbSpec("status", "Which provider opens the store; for a token: its label, manufacturer, serial, whether the key is there and the rollback epoch it keeps, and the keys enrolments made that no record names yet"),
        VerbSpec("migrate", "Re-encrypt every record under another provider (file, passphrase or pkcs11:URI), atomically (an interruption leaves the old store)",
                 arguments: ["PROVIDER"]),
    ], notes: ["A PKCS #11 URI names the token and module-path; its PIN comes from pin-source=file:/path (mode 0600), else the terminal "
               + "or standard input, never from the URI on the command line (pin-value is refused: argv is readable by every user). "
               + "With a token, a copied store directory does not open elsewhere, and PowerAuth's possession key is derived in the token.",
               exitNote])
}
