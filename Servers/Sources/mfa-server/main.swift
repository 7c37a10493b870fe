// mfa-server: stand-in back ends on 127.0.0.1 for trying and testing the SDKs (docs/design.md §3).
// `mfa-server [--host H] [--port P] [--state FILE]` prints the URL it serves, then serves until SIGINT/SIGTERM.

import Foundation
import MFAServerCore

var host = "127.0.0.1"
var port = 0
var stateFile: String?
var tls = false
var caOut: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--host" where !arguments.isEmpty: host = arguments.removeFirst()
    case "--port" where !arguments.isEmpty:
        guard let value = Int(arguments.removeFirst()), (0...65_535).contains(value) else {
            FileHandle.standardError.write(Data("mfa-server: --port takes 0…65535\n".utf8))
            exit(2)
        }
        port = value
    case "--state" where !arguments.isEmpty: stateFile = arguments.removeFirst()
    case "--tls": tls = true
    case "--ca-out" where !arguments.isEmpty: caOut = arguments.removeFirst()
    case "--help", "-h":
        print("""
            usage: mfa-server [--host 127.0.0.1] [--port 0] [--state FILE] [--tls [--ca-out FILE]]
            Serves the PowerAuth stand-in (/pa/v3/…, /app/…, /integration/powerauth/…), a Salt
            Edge v2 provider (/saltedge/…, /integration/saltedge/…), a CM Authenticator service
            (/cm/…, /integration/cm/…) and a MIRACL MFA platform with its two D-TAs and a relying
            party (backend <url>/mpin; /mpin/…, /integration/mpin/…). With --tls nginx (installed apart) serves https in front of it with a
            fresh root CA and a certificate under it for 127.0.0.1 and localhost, writes the root's
            PEM to the --ca-out file (for mfa --ca-file), prints the certificate's SHA-256 and its
            key's pin (for mfa --pinned-key), and the CM certificate list pins it.
            With --state, the PowerAuth
            application, activations, recovery codes and tokens are read from FILE at start and
            written back (0600, atomically) after every request; without it they live in memory.
            """)
        exit(0)
    default:
        FileHandle.standardError.write(Data("mfa-server: unknown argument \(argument) (see --help)\n".utf8))
        exit(2)
    }
}

let powerAuth = if let stateFile { try await PowerAuthStandIn(stateFile: stateFile) } else { try PowerAuthStandIn() }
let saltEdge = try SaltEdgeStandIn()
let cm = try CMStandIn()
let mpin = try MPinStandIn()
let identity = tls ? try TestTLSIdentity() : nil
if let identity {
    await cm.setPins([(identity.certificateSHA256Hex, identity.spkiSHA256Base64)])
    if let caOut { try identity.rootPEM.write(toFile: caOut, atomically: true, encoding: .utf8) }
    FileHandle.standardOutput.write(Data("mfa-server certificate SHA-256 \(identity.certificateSHA256Hex)\n".utf8))
    FileHandle.standardOutput.write(Data("mfa-server key pin sha256//\(identity.spkiSHA256Base64)\n".utf8))
}
let app = try MFAServer.application(host: host, port: port, powerAuth: powerAuth, saltEdge: saltEdge, cm: cm, mpin: mpin,
                                    tls: identity) { url in
    // Written straight to fd 1 so it appears at once even when stdout is a pipe (scripts wait for it).
    FileHandle.standardOutput.write(Data("mfa-server listening on \(url)\n".utf8))
}
try await app.runService()
