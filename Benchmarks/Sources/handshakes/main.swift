// Full TLS handshakes against a server on 127.0.0.1, as OpenSSL's `s_time -new` makes them: a
// new TCP connection, the handshake with the chain validated, `GET /` and its answer, close.
// Prints the count, the wall-clock rate and the rate per second of user CPU (what s_time calls
// "connections/user sec"), so Benchmarks/tls-handshakes can put the two clients side by side.
//   handshakes --port P --ca ROOT.pem [--seconds 10] [--tls12]

import Glibc
import TLS

var port: UInt16 = 4433, caPath = "", seconds = 10.0, versions: [TLSVersion] = [.tls13]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port": port = UInt16(arguments.popFirst() ?? "") ?? 0
    case "--ca": caPath = arguments.popFirst() ?? ""
    case "--seconds": seconds = Double(arguments.popFirst() ?? "") ?? 10
    case "--tls12": versions = [.tls12]
    default:
        print("usage: handshakes --port P --ca ROOT.pem [--seconds 10] [--tls12]")
        exit(2)
    }
}

func readFile(_ path: String) -> String {
    guard let file = fopen(path, "r") else { return "" }
    defer { fclose(file) }
    var text = ""
    var buffer = [CChar](repeating: 0, count: 4096)
    while fgets(&buffer, Int32(buffer.count), file) != nil { text += String(cString: buffer) }
    return text
}

func userSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
}

func wallSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// One connection: handshake, GET /, read to close. False on any failure.
func handshake(_ configuration: TLSConfiguration, port: UInt16) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { return false }
    func write(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
    var client = TLSClient(configuration: configuration)
    var buffer = [UInt8](repeating: 0, count: 65536)
    do {
        guard write(try client.start()) else { return false }
        var requested = false
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return requested }
            let output = try client.receive(buffer[0..<count])
            if !output.bytesToSend.isEmpty, !write(output.bytesToSend) { return false }
            if client.isConnected && !requested {
                guard write(try client.seal(Array("GET / HTTP/1.0\r\n\r\n".utf8))) else { return false }
                requested = true
            }
            if output.peerClosed { return true }
        }
    } catch {
        standardError("handshake failed: \(error)\n")
        return false
    }
}

func standardError(_ text: String) { _ = text.withCString { write(2, $0, strlen($0)) } }

let anchors = TrustAnchors(pemBundle: readFile(caPath))
guard anchors.count > 0, let identity = ServerIdentity(host: "localhost") else {
    standardError("handshakes: no CA certificate in \(caPath)\n")
    exit(2)
}
var configuration = TLSConfiguration(serverIdentity: identity, trust: .certificateAuthorities(anchors))
configuration.versions = versions
_ = handshake(configuration, port: port)  // warm-up
let startUser = userSeconds(), startWall = wallSeconds()
var count = 0, failures = 0
while wallSeconds() - startWall < seconds {
    if handshake(configuration, port: port) { count += 1 } else { failures += 1 }
}
let user = userSeconds() - startUser, wall = wallSeconds() - startWall
/// `value` with one decimal.
func decimal(_ value: Double) -> String { String(Double(Int((value * 10).rounded())) / 10) }
print("\(count) connections in \(decimal(wall)) s; \(decimal(Double(count) / wall)) connections/s; "
      + "\(decimal(Double(count) / max(user, 1e-6))) connections/user sec; \(failures) failures")
