// Name constraints (RFC 5280 §4.2.1.10) on the dNSName and iPAddress names of the certificates
// below a constrained CA. A DNS constraint "example.com" covers that name and every name under
// it; ".example.com" covers only the names under it. An IP constraint is an address and a mask
// of the same family. Forms this validator does not read (directory names, e-mail, URIs) are
// not checked.

extension X509NameConstraints {
    /// Whether every dNSName and iPAddress of `names` is permitted and none excluded.
    func allows(_ names: X509GeneralNames) -> Bool {
        for name in names.dnsNames {
            // §4.2.1.10: a name form with no permitted subtree of its own form is unconstrained.
            if let permitted, !permitted.dnsNames.isEmpty,
               !permitted.dnsNames.contains(where: { Self.dnsName(name, isWithin: $0) }) { return false }
            if let excluded, excluded.dnsNames.contains(where: { Self.dnsName(name, mayReach: $0) }) { return false }
        }
        for address in names.ipAddresses {
            if let permitted, !permitted.ipAddresses.isEmpty,
               !permitted.ipAddresses.contains(where: { Self.address(address, isWithin: $0) }) { return false }
            if let excluded, excluded.ipAddresses.contains(where: { Self.address(address, isWithin: $0) }) { return false }
        }
        return true
    }

    /// Whether `name` lies in the subtree `constraint` (case-insensitive; a wildcard label of
    /// the name is treated as a label).
    static func dnsName(_ name: String, isWithin constraint: String) -> Bool {
        var name = name.lowercased(), constraint = constraint.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if constraint.hasSuffix(".") { constraint.removeLast() }
        if constraint.isEmpty { return true }  // the empty constraint covers every name
        if constraint.hasPrefix(".") { return name.hasSuffix(constraint) }
        return name == constraint || name.hasSuffix("." + constraint)
    }

    /// Whether `name` may name a host in the subtree `constraint`: within it, or a wildcard
    /// `*.base` whose one label could name a host of the constraint (`secret.base`, or any
    /// name under `base`). An excluded subtree refuses a wildcard that could cover it.
    static func dnsName(_ name: String, mayReach constraint: String) -> Bool {
        if dnsName(name, isWithin: constraint) { return true }
        var name = name.lowercased(), constraint = constraint.lowercased()
        guard name.hasPrefix("*.") else { return false }
        if name.hasSuffix(".") { name.removeLast() }
        if constraint.hasSuffix(".") { constraint.removeLast() }
        if constraint.hasPrefix(".") { constraint.removeFirst() }
        return constraint.hasSuffix(String(name.dropFirst(1)))
    }

    /// Whether `address` (4 or 16 bytes) lies in `constraint` (address ‖ mask, 8 or 32 bytes).
    static func address(_ address: [UInt8], isWithin constraint: [UInt8]) -> Bool {
        guard constraint.count == 2 * address.count else { return false }  // another family
        let network = constraint[0..<address.count], mask = constraint[address.count...]
        return zip(address, zip(network, mask)).allSatisfy { $0 & $1.1 == $1.0 & $1.1 }
    }
}
