// Choosing the one slot a PKCS #11 URI names (RFC 7512 §2.3): the library attributes against
// C_GetInfo, slot-id, slot-description and slot-manufacturer against the slot list and
// C_GetSlotInfo, and the token attributes against C_GetTokenInfo. An attribute the URI leaves
// out matches anything; when more than one token is left, the URI is ambiguous and refused —
// the first token in slot order is no choice a store key should depend on.

extension PKCS11Module {
    /// The slot holding the one token that matches every attribute of `uri`. Throws
    /// ``PKCS11Error/Kind/tokenNotFound`` when none does, ``PKCS11Error/Kind/ambiguousToken``
    /// when several do.
    public func slot(matching uri: PKCS11URI) throws(PKCS11Error) -> UInt {
        if uri.namesLibrary {
            let library = try libraryInfo()
            guard uri.matches(library) else {
                throw PKCS11Error(.tokenNotFound, "the module at \(path) is \(library.manufacturer) \(library.description) "
                                  + "\(library.version.major).\(library.version.minor), not the library the URI names")
            }
        }
        var found: [UInt] = []
        for slot in try slots() {
            if let wanted = uri.slotID, wanted != slot { continue }
            if uri.namesSlot, !uri.matches(try slotInfo(slot: slot)) { continue }
            let info: PKCS11TokenInfo
            do { info = try tokenInfo(slot: slot) } catch where error.returnValue == .tokenNotPresent { continue }
            if uri.matches(info) { found.append(slot) }
        }
        guard found.count <= 1 else {
            throw PKCS11Error(.ambiguousToken, "\(found.count) tokens (slots \(found.map(String.init).joined(separator: ", "))) match "
                              + "\(uri.tokenDescription): add serial= or slot-id= to the URI to name one")
        }
        guard let slot = found.first else { throw PKCS11Error(.tokenNotFound, "no token matches \(uri.tokenDescription)") }
        return slot
    }

    /// The slot's description and manufacturer (`C_GetSlotInfo`).
    package func slotInfo(slot: UInt) throws(PKCS11Error) -> (description: String, manufacturer: String) {
        let getSlotInfo = try functions.function(.getSlotInfo, as: CGetSlotInfo.self)
        var info = CKSlotInfo()
        let rv = withUnsafeMutableBytes(of: &info) { getSlotInfo(slot, $0.baseAddress) }
        try check(rv, .getSlotInfo, "slot \(slot)")
        return (PKCS11TokenInfo.text(info.slotDescription), PKCS11TokenInfo.text(info.manufacturerID))
    }

    /// The library's manufacturer, description and version (`C_GetInfo`).
    package func libraryInfo() throws(PKCS11Error) -> (manufacturer: String, description: String, version: CKVersion) {
        let getInfo = try functions.function(.getInfo, as: CGetInfo.self)
        var info = CKInfo()
        let rv = withUnsafeMutableBytes(of: &info) { getInfo($0.baseAddress) }
        try check(rv, .getInfo)
        return (PKCS11TokenInfo.text(info.manufacturerID), PKCS11TokenInfo.text(info.libraryDescription), info.libraryVersion)
    }
}

extension PKCS11URI {
    /// The `slot-description`.
    public var slotDescription: String? { pathText("slot-description") }
    /// The `slot-manufacturer`.
    public var slotManufacturer: String? { pathText("slot-manufacturer") }
    /// The `library-manufacturer`.
    public var libraryManufacturer: String? { pathText("library-manufacturer") }
    /// The `library-description`.
    public var libraryDescription: String? { pathText("library-description") }
    /// The `library-version`, `M` or `M.N` (a missing minor version is 0: our reading of RFC 7512 §2.3).
    public var libraryVersion: CKVersion? { pathText("library-version").flatMap(Self.version) }

    /// `M` or `M.N`, each 0–255; nil otherwise.
    static func version(_ text: String) -> CKVersion? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let major = UInt8(parts[0]), let minor = parts.count == 2 ? UInt8(parts[1]) : 0 else { return nil }
        return CKVersion(major: major, minor: minor)
    }

    var namesLibrary: Bool { libraryManufacturer != nil || libraryDescription != nil || libraryVersion != nil }
    var namesSlot: Bool { slotDescription != nil || slotManufacturer != nil }

    func matches(_ library: (manufacturer: String, description: String, version: CKVersion)) -> Bool {
        (libraryManufacturer.map { $0 == library.manufacturer } ?? true) && (libraryDescription.map { $0 == library.description } ?? true)
            && (libraryVersion.map { $0 == library.version } ?? true)
    }

    func matches(_ slot: (description: String, manufacturer: String)) -> Bool {
        (slotDescription.map { $0 == slot.description } ?? true) && (slotManufacturer.map { $0 == slot.manufacturer } ?? true)
    }
}
