// mfa-server's `--state FILE`: the stand-in's whole
// state — application keys, activations, recovery codes, unused activation codes, tokens — as
// one JSON file, read at start and replaced atomically (temp file created 0600, fsync, rename)
// after every request that reached a service. The file holds private keys and PUKs in the
// clear: it is a test server's. 3.3 temporary keys live five minutes and are not kept.

import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthServer
import ProtocolSupport

extension PowerAuthStandIn {
    struct State: Codable {
        struct Token: Codable { let id: String; let secret: String; let activationID: String }
        let application: PowerAuthServer.Application.Snapshot
        let activations: [PowerAuthServer.Activation.Snapshot]
        let recoveryCodes: [PowerAuthServer.RecoveryCode.Snapshot]
        let issuedCodes: [String]
        let tokens: [Token]
        let nextID: Int
    }

    /// A stand-in kept in `stateFile`: restored from it when it exists, otherwise fresh and
    /// written there at once. A file that does not decode is an error, never a silent reset.
    public init(stateFile: String) async throws {
        if FileManager.default.fileExists(atPath: stateFile) {
            let state = try JSONDecoder().decode(State.self, from: Data(contentsOf: URL(fileURLWithPath: stateFile)))
            try await self.init(application: PowerAuthServer.Application(snapshot: state.application), restoring: state, stateFile: stateFile)
        } else {
            var random = SystemRandomSource()
            try await self.init(application: PowerAuthServer.Application(using: &random), restoring: nil, stateFile: stateFile)
        }
    }

    /// Restores `state`'s records into this stand-in.
    func restore(_ state: State) throws {
        for snapshot in state.activations { activations[snapshot.id] = try PowerAuthServer.Activation(snapshot: snapshot) }
        for snapshot in state.recoveryCodes { recoveryCodes[snapshot.code] = try PowerAuthServer.RecoveryCode(snapshot: snapshot) }
        issuedCodes = Set(state.issuedCodes)
        for token in state.tokens {
            tokens[token.id] = (PowerAuth.Token(id: token.id, secret: SymmetricKey(data: try Base64.decode(token.secret))), token.activationID)
        }
        nextID = state.nextID
    }

    /// The state as it is now.
    func snapshot() -> State {
        State(application: application.snapshot, activations: activations.values.map(\.snapshot).sorted { $0.id < $1.id },
              recoveryCodes: recoveryCodes.values.map(\.snapshot).sorted { $0.code < $1.code }, issuedCodes: issuedCodes.sorted(),
              tokens: tokens.map { State.Token(id: $0.key, secret: Base64.encode($0.value.token.secret.withUnsafeBytes { Array($0) }),
                                               activationID: $0.value.activationID) }.sorted { $0.id < $1.id },
              nextID: nextID)
    }

    /// Writes the state when a file is configured (after each handled request).
    func persist() throws {
        guard let stateFile else { return }
        try Self.write(snapshot(), to: stateFile)
    }

    static func write(_ state: State, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(state)
        let temporary = path + ".tmp-\(getpid())"
        // Born 0600 by open(2): FileManager's createFile would write first and chmod after,
        // leaving the activation keys readable by others for that instant.
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
