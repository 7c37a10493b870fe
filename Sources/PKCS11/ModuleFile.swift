// Which module files this client loads into its process: a library named by an absolute path,
// resolved once (symbolic links followed) and loaded by that resolved path, which must be a
// regular file owned by root or by this user and writable by neither group nor others, in
// directories — every one up to `/` — that only root or this user can change (a world-writable
// directory counts only with its sticky bit, as /tmp has). A module runs with the process's
// secrets; a relative path would be resolved against each run's working directory, and a
// writable file or directory lets another user swap the library.

#if canImport(Glibc)
import Glibc
#endif

enum ModuleFile {
    /// The resolved path of a module only root or this user can change, to give to `dlopen`.
    /// Throws ``PKCS11Error/Kind/untrustedModule`` for any other, and
    /// ``PKCS11Error/Kind/moduleNotLoaded`` when there is no such file.
    static func resolve(_ path: String) throws(PKCS11Error) -> String {
        guard path.hasPrefix("/") else {
            throw PKCS11Error(.untrustedModule, "module-path \(path) is not absolute: it would be resolved against each run's working directory")
        }
        guard let resolved = realpath(path, nil) else {
            throw PKCS11Error(.moduleNotLoaded, "\(path): \(String(cString: strerror(errno)))")
        }
        let target = String(cString: resolved)
        free(resolved)
        var place = target, isFile = true
        while true {
            var info = stat()
            guard stat(place, &info) == 0 else { throw PKCS11Error(.moduleNotLoaded, "\(place): \(String(cString: strerror(errno)))") }
            if isFile, info.st_mode & S_IFMT != S_IFREG { throw PKCS11Error(.moduleNotLoaded, "\(place) is not a regular file") }
            guard info.st_uid == 0 || info.st_uid == geteuid() else {
                throw PKCS11Error(.untrustedModule, "\(place) belongs to uid \(info.st_uid), neither root nor this user")
            }
            let sticky = !isFile && info.st_mode & S_ISVTX != 0 && info.st_uid == 0
            guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 || sticky else {
                throw PKCS11Error(.untrustedModule, "\(place) is writable by group or others (mode \(String(info.st_mode & 0o7777, radix: 8)))")
            }
            if place == "/" { return target }
            place = parent(of: place)
            isFile = false
        }
    }

    /// The directory a path names its file in ("/" for a file at the root).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
