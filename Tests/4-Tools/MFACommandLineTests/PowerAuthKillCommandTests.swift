// The built `mfa` killed with SIGKILL in the middle of PowerAuth work against a back end on
// 127.0.0.1, as a crash or a pulled plug would end it: a signed request killed after the server
// took its counter must not make the next request reuse that counter (the step is on disk
// before the request leaves), a command killed while it holds the instance's send lock must
// not keep the next one waiting, and an activation killed after its first request — while the
// server holds its create answer, or at a random point — must leave a store that still answers
// and activates.

import ClientTestSupport
import Foundation
import ProtocolSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: PowerAuthVaultCommandTests.executable), "the mfa executable is not built"))
struct PowerAuthKillCommandTests {
    /// A gate the back end's handler passes after it has answered (and so verified and
    /// consumed a counter) and before the answer is written: it counts the answers, and holds
    /// one there when asked to.
    final class Gate: @unchecked Sendable {
        private let lock = NSLock()
        private var holding = false
        private var arrived = 0
        private var times: [ContinuousClock.Instant] = []
        private let release = DispatchSemaphore(value: 0)

        /// Holds the next request that passes.
        func holdNext() { lock.withLock { holding = true } }

        /// How many requests have passed (or are held).
        var arrivals: Int { lock.withLock { arrived } }
        /// When each request passed, in order.
        var arrivalTimes: [ContinuousClock.Instant] { lock.withLock { times } }

        /// Called by the handler: waits (at most a minute) when a hold was asked for.
        func pass() {
            let wait = lock.withLock { () -> Bool in
                arrived += 1
                times.append(ContinuousClock.now)
                defer { holding = false }
                return holding
            }
            if wait { _ = release.wait(timeout: .now() + 60) }
        }

        /// Lets a held handler finish; its client is gone, so the answer is lost.
        func open() { release.signal() }
    }

    /// Starts the built `mfa` with `arguments` and the store of `command`.
    func start(_ arguments: [String], _ command: InProcessCommand) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PowerAuthVaultCommandTests.executable)
        process.arguments = arguments + ["--store", command.store]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until `condition` holds, `process` ended or a minute passed; whether it held.
    func wait(for condition: () -> Bool, while process: Process) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .microseconds(500))
        }
        return condition()
    }

    /// SIGKILL for a child still running (one that ended may have been reaped, and its
    /// process id given to another process), then waits for it.
    func killAndWait(_ child: Process) {
        if child.isRunning { kill(child.processIdentifier, SIGKILL) }
        child.waitUntilExit()
    }

    /// Runs `body` with an activated instance whose server has verified a child's
    /// `fetch-encryption-key --index 3` (its counter taken) and holds the answer, the child
    /// still running and holding the instance's send lock; `body` kills the child.
    func withAChildHeldAtTheServer(_ body: (Gate, InProcessCommand, _ password: String, _ child: Process) async throws -> Void) async throws {
        let gate = Gate()
        let (command, _, server) = try await PowerAuthVaultCommandTests.activated { request in
            if request.path == "pa/v3/vault/unlock" { gate.pass() }
        }
        defer { server.stop(); command.cleanUp() }
        let password = command.directory + "/password"
        gate.holdNext()
        let child = try start(["powerauth", "fetch-encryption-key", "--index", "3", "--password-file", password], command)
        // Whatever `body` does or throws, the child ends and the held answer is released.
        defer {
            killAndWait(child)
            gate.open()
        }
        guard try await wait(for: { gate.arrivals >= 1 }, while: child) else {
            Issue.record("the child's request did not reach the server before the child ended")
            return
        }
        try await body(gate, command, password, child)
    }

    @Test func aSignedRequestKilledAfterTheServerTookItsCounterDoesNotReuseTheCounter() async throws {
        try await withAChildHeldAtTheServer { gate, command, password, child in
            killAndWait(child)
            gate.open()
            try #require(child.terminationReason == .uncaughtSignal)
            // Had the counter been saved only with the answer, this request would sign with the
            // step the server already took, and its window would refuse it.
            let (status, printed) = await command.run(["powerauth", "fetch-encryption-key", "--index", "3", "--password-file", password, "--json"])
            #expect(status == 0 && InProcessCommand.object(printed)?["index"] as? Int == 3, "\(printed)")
            #expect(gate.arrivals == 2)
        }
    }

    @Test func aCommandKilledWhileItHoldsTheSendLockLetsTheNextOneSign() async throws {
        try await withAChildHeldAtTheServer { gate, command, password, child in
            // A second command on the same instance waits for the lock instead of signing the
            // next counter and overtaking the first on the wire.
            let second = Task { await command.run(["powerauth", "fetch-encryption-key", "--index", "4", "--password-file", password, "--json"]) }
            try await Task.sleep(for: .seconds(1))
            #expect(gate.arrivals == 1, "the second command sent while the first held the send lock")
            // The kernel drops a killed process's flock: the waiting command goes on, signs the
            // counter after the one the server took, and is accepted.
            killAndWait(child)
            let killed = ContinuousClock.now
            gate.open()
            try #require(child.terminationReason == .uncaughtSignal)
            let (status, printed) = await second.value
            #expect(status == 0 && InProcessCommand.object(printed)?["index"] as? Int == 4, "\(printed)")
            // However slow the machine, the second request reached the server only after the
            // first command was gone: it waited for the lock.
            let times = gate.arrivalTimes
            #expect(times.count == 2 && times[1] > killed, "\(times) against the kill at \(killed)")
        }
    }

    @Test func anActivationKilledAfterItsFirstRequestLeavesAStoreThatAnswersAndActivates() async throws {
        // A debug child spends seconds starting before it sends anything, so the kills are
        // timed from its first request. The first round runs to the end to measure how long the
        // rest takes (its requests, the server's answers, the keys stored); the second kills
        // while the server holds its create answer (the server has the activation, the device
        // not); the others at a random point of the measured span, or a little after it.
        var tail = Duration.zero
        for round in 0..<6 {
            let answers = Gate(), create = Gate()
            let (command, backEnd, server) = try await PowerAuthVaultCommandTests.configured { request in
                answers.pass()
                if request.path == "pa/v3/activation/create" { create.pass() }
            }
            defer { server.stop(); command.cleanUp() }
            if round == 1 { create.holdNext() }
            let password = command.directory + "/password"
            let code = try command.secretFile("code", try backEnd.activationCode())
            let child = try start(["powerauth", "activate", "--code-file", code, "--password-file", password], command)
            let reached = try await wait(for: { answers.arrivals > 0 }, while: child)
            let firstAnswer = ContinuousClock.now
            try #require(reached, "round \(round): the child sent nothing")
            switch round {
            case 0:
                child.waitUntilExit()
                tail = ContinuousClock.now - firstAnswer
                try #require(child.terminationStatus == 0)
                continue
            case 1:
                let held = try await wait(for: { create.arrivals == 1 }, while: child)
                #expect(held, "the create request never came")
                killAndWait(child)
                create.open()
            default:
                try await Task.sleep(for: tail * Double.random(in: 0...1.2))
                killAndWait(child)
            }

            // Whatever the kill interrupted, the store opens and answers.
            var (status, printed) = await command.run(["powerauth", "status", "--json"])
            let object = try #require(InProcessCommand.object(printed), "round \(round): \(printed)")
            #expect(status == 0, "round \(round): \(printed)")
            if round == 1 { #expect(object["activated"] as? Bool == false, "round 1: \(object)") }
            if object["activationId"] as? String != "act-vault" {
                // Not activated on this device: a fresh code activates it.
                let again = try command.secretFile("code-again", try backEnd.activationCode())
                (status, printed) = await command.run(["powerauth", "activate", "--code-file", again, "--password-file", password, "--json"])
                #expect(status == 0, "round \(round): \(printed)")
            }
            // Activated either way: a signed request with the password is accepted.
            (status, printed) = await command.run(["powerauth", "fetch-encryption-key", "--index", "1", "--password-file", password, "--json"])
            #expect(status == 0, "round \(round): \(printed)")
        }
    }
}
