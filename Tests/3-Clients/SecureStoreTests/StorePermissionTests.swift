// The store refuses what it cannot trust, on the real file system (OpenSSH's StrictModes rule):
// a group/world-writable or foreign-owned directory, a symlinked directory, a key file others
// can read, a symlink where a record or the key should be; temporary files are never reached
// through a planted symlink; missing parents are created; every failure names its path.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct StorePermissionTests {
    static func withDirectory(_ body: (String) throws -> Void) throws {
        try withTemporaryDirectory("store-perm") { try body($0.path) }
    }

    @Test func worldWritableDirectoryIsRefused() throws {
        try Self.withDirectory { root in
            let path = root + "/store"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            #expect(chmod(path, 0o777) == 0)
            expectError(kind: .insecurePermissions) { _ = try SecureStore(directory: path) }
            #expect(chmod(path, 0o720) == 0)                                        // group-writable too
            expectError(kind: .insecurePermissions) { _ = try SecureStore(directory: path) }
            #expect(chmod(path, 0o755) == 0)                                        // readable is fine
            _ = try SecureStore(directory: path)
        }
    }

    @Test func directoryOwnedByAnotherUserIsRefused() throws {
        try Self.withDirectory { root in
            let path = root + "/store"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try #require(chmod(path, 0o700) == 0)
            guard geteuid() == 0 else { return }                                    // only root can give a directory away
            try #require(Glibc.chown(path, 65534, 65534) == 0)                      // "nobody"
            let error = expectError(kind: .insecurePermissions, "a directory owned by uid 65534 was accepted") { _ = try SecureStore(directory: path) }
            #expect(error?.path == path)
            #expect(error?.description.contains(path) == true && error?.description.contains("65534") == true)
        }
    }

    /// StrictModes above the store too: a parent another user may write (and not sticky) or
    /// owns could swap the checked store for their own; /tmp (sticky) is fine.
    @Test func aParentOthersMayReplaceTheStoreInIsRefused() throws {
        try Self.withDirectory { root in
            let parent = root + "/open", path = parent + "/store"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try #require(chmod(path, 0o700) == 0)
            _ = try SecureStore(directory: path)                                    // under /tmp, sticky: accepted
            try #require(chmod(parent, 0o777) == 0)
            expectError(kind: .insecurePermissions) { _ = try SecureStore(directory: path) }
            try #require(chmod(parent, 0o1777) == 0)                                // sticky, as /tmp
            _ = try SecureStore(directory: path)
            try #require(chmod(parent, 0o755) == 0)
            guard geteuid() == 0 else { return }
            try #require(Glibc.chown(parent, 65534, 65534) == 0)                    // owned by "nobody"
            expectError(kind: .insecurePermissions) { _ = try SecureStore(directory: path) }
            try #require(Glibc.chown(parent, 0, 0) == 0)
        }
    }

    @Test func symlinkedDirectoryIsRefused() throws {
        try Self.withDirectory { root in
            try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: false)
            try #require(chmod(root + "/real", 0o700) == 0)
            try #require(symlink(root + "/real", root + "/link") == 0)
            expectError(kind: .insecurePermissions) { _ = try SecureStore(directory: root + "/link") }
            expectError(kind: .insecurePermissions) { _ = try SecureStore(directory: root + "/link/") }
        }
    }

    @Test func keyFileReadableByOthersIsRefused() throws {
        try Self.withDirectory { root in
            let path = root + "/store"
            try SecureStore(directory: path).write(SecretBytes("v".utf8), to: "r")
            #expect(chmod(path + "/.key", 0o644) == 0)
            expectError(kind: .insecurePermissions) { _ = try SecureStore(directory: path) }
            #expect(chmod(path + "/.key", 0o600) == 0)
            #expect(try SecureStore(directory: path).read("r")?.count == 1)
            // A planted key file (an attacker's 0644 key in a fresh directory) is refused too.
            let planted = root + "/planted"
            try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: false)
            try #require(chmod(planted, 0o700) == 0)
            FileManager.default.createFile(atPath: planted + "/.key", contents: Data(repeating: 7, count: 32),
                                           attributes: [.posixPermissions: 0o644])
            expectError(kind: .insecurePermissions) { _ = try SecureStore(directory: planted) }
        }
    }

    @Test func symlinksInsideTheStoreAreNotFollowed() throws {
        try Self.withDirectory { root in
            let path = root + "/store"
            let attacker = root + "/attacker"
            try Data("attacker's file".utf8).write(to: URL(fileURLWithPath: attacker))
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try #require(chmod(path, 0o700) == 0)
            // The temp name the key file used to go through, and a few more of that pattern.
            for suffix in ["key", "salt", "0", "000000000000"] {
                try #require(symlink(attacker, path + "/.tmp-.key-\(getpid())-\(suffix)") == 0)
            }
            let store = try SecureStore(directory: path)
            try store.write(SecretBytes("secret".utf8), to: "r")
            #expect(try Data(contentsOf: URL(fileURLWithPath: attacker)) == Data("attacker's file".utf8))
            #expect(try FileManager.default.attributesOfItem(atPath: path + "/.key")[.type] as? FileAttributeType == .typeRegular)
            // A symlink where a record, the key or the lock should be is refused, not followed.
            try #require(symlink(attacker, path + "/planted") == 0)
            expectError(kind: .insecurePermissions) { _ = try store.read("planted") }
            try FileManager.default.removeItem(atPath: path + "/.lock")
            try #require(symlink(attacker, path + "/.lock") == 0)
            expectError(kind: .insecurePermissions) { try store.write(SecretBytes("x".utf8), to: "r") }
            #expect(try Data(contentsOf: URL(fileURLWithPath: attacker)) == Data("attacker's file".utf8))
        }
    }

    @Test func missingParentsAreCreatedAndFailuresNameThePath() throws {
        try Self.withDirectory { root in
            let path = root + "/a/b/c/store"
            try SecureStore(directory: path).write(SecretBytes("v".utf8), to: "r")
            for created in [root + "/a", root + "/a/b", root + "/a/b/c", path] {
                let mode = try #require(FileManager.default.attributesOfItem(atPath: created)[.posixPermissions] as? Int)
                #expect(mode == 0o700, "\(created)")
            }
            // A parent that is a file: the error says which path failed.
            FileManager.default.createFile(atPath: root + "/file", contents: Data())
            let error = expectError(kind: .io, "a store under a regular file was created") { _ = try SecureStore(directory: root + "/file/x/store") }
            #expect(error?.description.contains(root + "/file") == true, "\(String(describing: error))")
        }
    }

    @Test func defaultDirectoryHonoursXDGAndNeverFallsBackToTheCurrentDirectory() throws {
        #expect(try SecureStore.defaultDirectory(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/u"]) == "/x/data/swiftmfa")
        #expect(try SecureStore.defaultDirectory(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.local/share/swiftmfa")
        #expect(try SecureStore.defaultDirectory(environment: ["HOME": "/home/u"]) == "/home/u/.local/share/swiftmfa")
        expectError(kind: .noDefaultDirectory) { _ = try SecureStore.defaultDirectory(environment: [:]) }
        expectError(kind: .noDefaultDirectory) { _ = try SecureStore.defaultDirectory(environment: ["HOME": ""]) }
    }
}
