// diff-mpin: MPin.Client against MPin.Server and the DVS verifier (docs/protocols/mpin.md §3–§5), with two fixed
// issuing authorities made once per process (a pairing is about a millisecond). The fuzzer picks
// the identity, the registered and the entered PIN, time permits and the server's day, the
// one-pass time and message, and which of them the verifier sees differently. The protocol
// predicts the verdict: accepted exactly when the PINs agree mod 10⁶, the identities, days,
// messages and effective times (GET_Y drops T ≤ 0) agree and the verifier uses the signer's key;
// when rejected with evidence after a PIN error δ alone, E = F^(−δ) and the kangaroos find δ or
// give up.
import CryptoPrimitives
import MPin

enum MPinPair {
    struct World: @unchecked Sendable {
        let shares: [MPin.MasterSecretShare]
        let serverSecret: MPin.ServerSecret
        let signingKey: MPin.DVS.PrivateKey
        let signingPublicKey: MPin.DVS.PublicKey
        let otherPublicKey: MPin.DVS.PublicKey
    }

    static let world: World = {
        do {
            var seeded = SeededRandomSource(seed: 31)
            let shares = [try MPin.MasterSecretShare.random(using: &seeded), try MPin.MasterSecretShare.random(using: &seeded)]
            let signingKey = try MPin.DVS.PrivateKey(using: &seeded)
            return World(shares: shares, serverSecret: MPin.Issuer.combine(shares.map { MPin.Issuer.serverSecret($0) }),
                         signingKey: signingKey, signingPublicKey: signingKey.publicKey,
                         otherPublicKey: try MPin.DVS.PrivateKey(using: &seeded).publicKey)
        } catch {
            fatalError("the M-Pin authorities do not build: \(error)")
        }
    }()

    /// The challenge's time as GET_Y reads it: none when T ≤ 0 (docs/protocols/mpin.md §3).
    static func effective(_ time: Int32) -> Int32? { time > 0 ? time : nil }

    static func run(_ input: [UInt8]) {
        var reader = ProtocolInput(input)
        let mode = reader.below(3)
        let idBytes = reader.chunk(maximum: 40)
        let registered = reader.word32()
        let entered: UInt32
        switch reader.below(5) {
        case 0, 1: entered = registered
        case 2: entered = registered &+ UInt32(reader.byte()) &* 1_000_000   // equal mod 10⁶ unless it wraps
        case 3: entered = registered &+ UInt32(reader.byte()) &+ 1
        default: entered = reader.word32()
        }
        let samePIN = entered % MPin.maximumPIN == registered % MPin.maximumPIN
        let serverIDBytes = reader.below(5) == 0 ? reader.mutate(idBytes) : idBytes
        let sameIdentity = serverIDBytes == idBytes
        let day = reader.word32()
        let (clientDay, serverDay): (UInt32?, UInt32?)
        switch reader.below(5) {
        case 0: (clientDay, serverDay) = (nil, nil)
        case 1: (clientDay, serverDay) = (day, day)
        case 2: (clientDay, serverDay) = (day, day &+ UInt32(reader.byte() | 1))
        case 3: (clientDay, serverDay) = (nil, day)
        default: (clientDay, serverDay) = (day, nil)
        }
        let message = reader.chunk(maximum: 64)
        let serverMessage = reader.below(4) == 0 ? reader.mutate(message) : message
        let time = Int32(bitPattern: reader.word32())
        let serverTime = reader.below(4) == 0 ? Int32(bitPattern: reader.word32()) : time
        let useOtherKey = reader.below(6) == 0
        let runKangaroo = reader.below(8) == 0
        var random = SeededRandomSource(seed: reader.bytes(32))
        let w = world

        if mode == 2 {
            // DVS (docs/protocols/mpin.md §5): the signing identity is mpinId ‖ Pa; no permits.
            let identity = MPin.Identity(mpinID: idBytes, dvsPublicKey: w.signingPublicKey)
            let secret = MPin.DVS.clientSecret(w.shares.map { MPin.Issuer.clientSecretShare($0, for: identity) }, privateKey: w.signingKey)
            let token = MPin.Client.extractPIN(MPin.PIN(registered), identity: identity, clientSecret: secret)
            let hash = message
            let signature: MPin.DVS.Signature
            do {
                signature = try MPin.DVS.signature(for: hash, time: time, identity: identity, pin: MPin.PIN(entered), token: token, using: &random)
            } catch {
                FuzzTarget.violated("DVS signing fails: \(error)", input)
            }
            let valid = MPin.DVS.isValidSignature(signature, for: serverMessage, time: serverTime,
                                                  identity: MPin.Identity(mpinID: serverIDBytes, dvsPublicKey: w.signingPublicKey),
                                                  publicKey: useOtherKey ? w.otherPublicKey : w.signingPublicKey, serverSecret: w.serverSecret)
            let predicted = samePIN && sameIdentity && !useOtherKey && serverMessage == hash && effective(time) == effective(serverTime)
            guard valid == predicted else {
                FuzzTarget.mismatch("DVS: verifier \(valid), protocol \(predicted) (same PIN \(samePIN), identity \(sameIdentity), other key \(useOtherKey), "
                                    + "same hash \(serverMessage == hash), times \(time)/\(serverTime))", input)
            }
            return
        }

        let identity = MPin.Identity(idBytes)
        let serverIdentity = MPin.Identity(serverIDBytes)
        let secret = MPin.Issuer.combine(w.shares.map { MPin.Issuer.clientSecretShare($0, for: identity) })
        let token = MPin.Client.extractPIN(MPin.PIN(registered), identity: identity, clientSecret: secret)
        let permit = clientDay.map { day in
            MPin.Client.DatedPermit(MPin.Issuer.combine(w.shares.map { MPin.Issuer.timePermit($0, for: identity, day: day) }), day: day)
        }
        var predicted = samePIN && sameIdentity && clientDay == serverDay
        let verdict: MPin.Server.Verification
        var sameChallenge = true
        if mode == 0 {
            // Two passes: the server's challenge is random.
            do {
                let first = try MPin.Client.firstPass(identity: identity, pin: MPin.PIN(entered), token: token, permit: permit, using: &random)
                let challenge = try BN254CX.Scalar.random(using: &random)
                let v = MPin.Client.secondPass(first, challenge: challenge)
                verdict = MPin.Server.verify(identity: serverIdentity, day: serverDay, challenge: challenge,
                                             client: MPin.Server.ClientValues(u: first.u, ut: first.ut, v: v), serverSecret: w.serverSecret)
            } catch {
                FuzzTarget.violated("M-Pin client fails: \(error)", input)
            }
        } else {
            // One pass: both sides derive y from the time and the transcript.
            let pass: MPin.Client.OnePass
            do {
                pass = try MPin.Client.onePass(identity: identity, pin: MPin.PIN(entered), token: token, permit: permit, message: message, time: time,
                                               using: &random)
            } catch {
                FuzzTarget.violated("M-Pin client fails: \(error)", input)
            }
            let (result, serverChallenge) = MPin.Server.verifyOnePass(identity: serverIdentity, day: serverDay,
                                                                      client: MPin.Server.ClientValues(u: pass.first.u, ut: pass.first.ut, v: pass.v),
                                                                      message: serverMessage, time: serverTime, serverSecret: w.serverSecret)
            sameChallenge = (clientDay == nil) == (serverDay == nil) && message == serverMessage && effective(time) == effective(serverTime)
            guard (serverChallenge == pass.challenge) == sameChallenge else {
                FuzzTarget.mismatch("M-Pin one-pass: the server's challenge equality is \(!sameChallenge), the protocol's \(sameChallenge)", input)
            }
            predicted = predicted && sameChallenge
            verdict = result
        }
        let what = "M-Pin \(mode == 0 ? "two-pass" : "one-pass"): same PIN \(samePIN), identity \(sameIdentity), days \(String(describing: clientDay))/\(String(describing: serverDay))"
        switch verdict {
        case .accepted:
            if !predicted { FuzzTarget.mismatch("\(what): accepted, the protocol refuses", input) }
        case .rejected(let evidence):
            if predicted { FuzzTarget.mismatch("\(what): rejected, the protocol accepts", input) }
            // The verifier has U unless a permit was expected and no UT came (then it has nothing to pair).
            let hasEvidence = !(serverDay != nil && clientDay == nil)
            guard (evidence != nil) == hasEvidence else { FuzzTarget.mismatch("\(what): evidence \(evidence != nil), expected \(hasEvidence)", input) }
            // After a PIN error alone the evidence measures it: E = F^(−δ), δ = entered − registered.
            guard let evidence, sameIdentity, clientDay == serverDay, !samePIN, sameChallenge else { return }
            let delta = Int(entered % MPin.maximumPIN) - Int(registered % MPin.maximumPIN)
            let exponent = delta >= 0 ? -BN254CX.Scalar(UInt64(delta)) : BN254CX.Scalar(UInt64(-delta))
            guard evidence.e == evidence.f.power(exponent) else { FuzzTarget.mismatch("\(what): E is not F^(−δ) for δ = \(delta)", input) }
            if runKangaroo, let found = MPin.Server.pinError(evidence), found != delta {
                FuzzTarget.mismatch("\(what): the kangaroos find a PIN error \(found), the real one is \(delta)", input)
            }
        }
    }
}
