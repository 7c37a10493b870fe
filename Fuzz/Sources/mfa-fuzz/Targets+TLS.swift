// tls-server-flight and x509-certificate: the TLS client fed any bytes as the server's answer to
// its ClientHello (records, handshake messages, alerts: it must refuse with a typed error or
// wait for more, never trap, and never report a handshake complete), and the certificate parser
// and path validator on any DER (a certificate that parses is also validated against itself as
// the only anchor).
import CryptoPrimitives
import Foundation
import TLS

extension FuzzTarget {
    static let tls: [FuzzTarget] = [
        FuzzTarget("tls-server-flight", seeds: [.generated {
            // A ServerHello record start, an alert, a change_cipher_spec, a TLS 1.2 hello.
            [[22, 3, 3, 0, 6, 2, 0, 0, 2, 3, 3], [21, 3, 3, 0, 2, 2, 40], [20, 3, 3, 0, 1, 1],
             [22, 3, 3, 0, 42, 2, 0, 0, 38, 3, 3] + [UInt8](repeating: 0x11, count: 32) + [0, 0xC0, 0x2B, 0]]
        }]) { input in
            guard let identity = ServerIdentity(host: "example.com") else { return }
            var client = TLSClient(configuration: TLSConfiguration(serverIdentity: identity, trust: .pinnedKeys(TLSPins(spkiSHA256: [[UInt8](repeating: 7, count: 32)]))),
                                   random: SeededRandomSource(seed: 1))
            guard (try? client.start()) != nil else { FuzzTarget.violated("start() failed", input) }
            // Fed in two pieces: where the split falls must not matter to safety.
            let split = input.isEmpty ? 0 : Int(input[0]) % (input.count + 1)
            for piece in [input[..<split], input[split...]] {
                do {
                    let output = try client.receive(piece)
                    if output.handshakeCompleted || client.isConnected { FuzzTarget.violated("a handshake completed on fuzzed bytes", input) }
                } catch {
                    _ = client.alertRecord(for: error as? TLSError ?? TLSError(.invalidState, alert: nil, ""))
                    return
                }
            }
        },
        FuzzTarget("x509-certificate", seeds: [.generated {
            // The leaves of our recorded path-validation suite (the run starts in Fuzz/).
            guard let data = FileManager.default.contents(atPath: "../Vectors/x509/server-path.json"),
                  let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let cases = document["cases"] as? [[String: Any]] else { return [] }
            return cases.prefix(200).compactMap { ($0["inputs"] as? [String: Any])?["leaf"] as? String }.compactMap { try? Hex.decode($0) }
        }]) { input in
            guard let certificate = try? X509Certificate(derRepresentation: input) else { return }
            _ = certificate.dnsNames
            _ = certificate.subjectPublicKeyInfoSHA256
            let validator = X509PathValidator(anchors: [certificate], time: certificate.notBefore)
            _ = try? validator.validate(leaf: certificate, intermediates: [certificate], identity: ServerIdentity(host: "example.com"))
        },
    ]
}
