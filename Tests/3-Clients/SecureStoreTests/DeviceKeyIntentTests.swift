// The write-ahead note of a device key (DeviceKeyIntents.swift): an intent whose maker still
// runs is never swept; one whose maker is gone is swept once, its key discarded; a discard that
// fails keeps the intent for the next sweep; a finished intent leaves nothing. The maker's
// liveness is the kernel's `flock`: a second process holds the lock file here (util-linux
// `flock`) and is killed with SIGKILL, as a crash would end an enrolment.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import TestSupport

@Suite struct DeviceKeyIntentTests {
    /// The sweep's discard calls, in order, and whether to refuse them.
    final class Discards: @unchecked Sendable {
        var labels: [String] = []
        var refuse = false
        func discard(_ label: String) throws {
            labels.append(label)
            if refuse { throw SecureStoreError(.io, "the token is away") }
        }
    }

    @Test func aLiveIntentIsKeptAndAFinishedOneLeavesNothing() throws {
        let temporary = try TemporaryDirectory("intent-live")
        defer { temporary.remove() }
        let store = try SecureStore(directory: temporary.appending("store"))
        let intent = try store.beginDeviceKeyIntent(label: "saltedge-0001")
        #expect(try store.names() == ["devicekey.intent.saltedge-0001"])
        #expect(try store.deviceKeyIntentLabels() == ["saltedge-0001"])
        let discards = Discards()
        #expect(try store.sweepAbandonedDeviceKeyIntents(prefix: "saltedge-", isNamed: { _ in false }, delete: discards.discard).isEmpty)
        #expect(discards.labels.isEmpty)
        try intent.finish()
        try intent.finish()  // idempotent
        #expect(try store.names().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.directory + "/.intent-saltedge-0001"))
        #expect(try store.sweepAbandonedDeviceKeyIntents(prefix: "saltedge-", isNamed: { _ in false }, delete: discards.discard).isEmpty)
    }

    @Test func anAbandonedIntentIsSweptOnceAndARefusedDiscardKeepsIt() throws {
        let temporary = try TemporaryDirectory("intent-abandoned")
        defer { temporary.remove() }
        let store = try SecureStore(directory: temporary.appending("store"))
        do { _ = try store.beginDeviceKeyIntent(label: "cm-00aa") }  // dropped unfinished: its lock goes
        _ = try store.beginDeviceKeyIntent(label: "saltedge-00bb")  // another prefix: not this sweep's
        let discards = Discards()
        discards.refuse = true
        #expect(try store.sweepAbandonedDeviceKeyIntents(prefix: "cm-", isNamed: { _ in false }, delete: discards.discard).isEmpty)
        #expect(discards.labels == ["cm-00aa"])
        #expect(try store.names().contains("devicekey.intent.cm-00aa"))
        discards.refuse = false
        #expect(try store.sweepAbandonedDeviceKeyIntents(prefix: "cm-", isNamed: { _ in false }, delete: discards.discard) == ["cm-00aa"])
        #expect(try store.sweepAbandonedDeviceKeyIntents(prefix: "cm-", isNamed: { _ in false }, delete: discards.discard).isEmpty)
        #expect(discards.labels == ["cm-00aa", "cm-00aa"])
        #expect(try store.names() == ["devicekey.intent.saltedge-00bb"])
    }

    /// Settling an unsaved enrolment: a key a record names is never deleted (the intent stays for
    /// the sweep), an unnamed one is deleted and the intent ends, a delete that fails keeps it.
    @Test func anUnsavedEnrolmentDeletesOnlyAnUnnamedKey() throws {
        let temporary = try TemporaryDirectory("intent-settle")
        defer { temporary.remove() }
        let store = try SecureStore(directory: temporary.appending("store"))
        var deleted: [String] = []
        let named = try store.beginDeviceKeyIntent(label: "cm-01")
        named.settle(saved: false, isNamed: { true }, delete: { deleted.append("cm-01"); return true })
        let refused = try store.beginDeviceKeyIntent(label: "cm-02")
        refused.settle(saved: false, isNamed: { false }, delete: { deleted.append("cm-02"); return false })
        let unnamed = try store.beginDeviceKeyIntent(label: "cm-03")
        unnamed.settle(saved: false, isNamed: { false }, delete: { deleted.append("cm-03"); return true })
        let saved = try store.beginDeviceKeyIntent(label: "cm-04")
        saved.settle(saved: true, isNamed: { true }, delete: { deleted.append("cm-04"); return true })
        #expect(deleted == ["cm-02", "cm-03"])
        #expect(try store.names() == ["devicekey.intent.cm-01", "devicekey.intent.cm-02"])
    }

    /// Another process holds the intent's lock (as a running enrolment does): not swept. Killed
    /// with SIGKILL: the kernel drops its lock, and the next sweep takes the intent.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock"), "needs util-linux flock"))
    func anIntentIsSweptOnlyOnceItsMakerIsKilled() throws {
        let temporary = try TemporaryDirectory("intent-kill")
        defer { temporary.remove() }
        let store = try SecureStore(directory: temporary.appending("store"))
        do { _ = try store.beginDeviceKeyIntent(label: "saltedge-00cc") }
        let maker = Process()
        maker.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        maker.arguments = ["--no-fork", "--exclusive", store.directory + "/.intent-saltedge-00cc", "sh", "-c", "echo locked; exec sleep 60"]
        let output = Pipe()
        maker.standardOutput = output
        try maker.run()
        defer { if maker.isRunning { kill(maker.processIdentifier, SIGKILL) } }
        #expect(output.fileHandleForReading.availableData == Data("locked\n".utf8))  // it holds the lock now
        let discards = Discards()
        #expect(try store.sweepAbandonedDeviceKeyIntents(prefix: "saltedge-", isNamed: { _ in false }, delete: discards.discard).isEmpty)
        kill(maker.processIdentifier, SIGKILL)
        maker.waitUntilExit()
        #expect(try store.sweepAbandonedDeviceKeyIntents(prefix: "saltedge-", isNamed: { _ in false }, delete: discards.discard) == ["saltedge-00cc"])
        #expect(discards.labels == ["saltedge-00cc"])
        #expect(try store.names().isEmpty)
    }
}
