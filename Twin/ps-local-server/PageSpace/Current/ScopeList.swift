import Foundation

/// PageSpace's OAuth scope grammar: parseScopeList of packages/lib/src/auth/oauth/scopes.ts:142-313
/// (ADR 0002), ported rule for rule. The device authorization refuses a scope that does not
/// parse (`invalid_scope`), and an access token whose stored scopes do not parse (the empty
/// scope of a grant asked for with none) resolves to nobody (lib/auth/index.ts:320-324).
struct ScopeList: Equatable {
    var account = false
    var offlineAccess = false
    var manageKeys = false
    var allDrives = false
    var updateKeyID: String?
    var activateKeyID: String?
    var newKeyName: String?
    /// The drive scopes as given (`drive:<id>[:admin|:member|:role:<id>]`), one per drive.
    var driveScopes: [String] = []

    var drives: [String] { driveScopes.compactMap(Self.driveID) }

    /// The ScopeError code when the list does not parse.
    struct Failure: Error, Equatable { let code: String }

    /// parseScopeList(raw).
    static func parse(_ raw: String) -> Result<ScopeList, Failure> {
        // scopes.ts:143-145: JavaScript's trim() (whitespace and line ends).
        if raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return .failure(Failure(code: "empty_scope")) }
        let tokens = raw.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if tokens.contains(where: \.isEmpty) { return .failure(Failure(code: "malformed_scope")) }
        var set = ScopeList()
        for token in tokens {
            switch token {
            case "account": set.account = true
            case "offline_access": set.offlineAccess = true
            case "manage_keys": set.manageKeys = true
            case "all_drives": set.allDrives = true
            default:
                if let id = token.dropPrefix("update_key:") {
                    guard isResourceID(id) else { return .failure(Failure(code: "malformed_scope")) }
                    guard set.updateKeyID == nil else { return .failure(Failure(code: "duplicate_update_key")) }
                    set.updateKeyID = id
                } else if let id = token.dropPrefix("activate_key:") {
                    guard isResourceID(id) else { return .failure(Failure(code: "malformed_scope")) }
                    guard set.activateKeyID == nil else { return .failure(Failure(code: "duplicate_activate_key")) }
                    set.activateKeyID = id
                } else if let encoded = token.dropPrefix("name:") {
                    guard set.newKeyName == nil else { return .failure(Failure(code: "duplicate_name")) }
                    // decodeURIComponent; 1 to 100 UTF-16 units, no control characters.
                    guard let name = encoded.removingPercentEncoding, !name.isEmpty, name.utf16.count <= 100,
                          !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
                    else { return .failure(Failure(code: "malformed_name")) }
                    set.newKeyName = name
                } else if token.hasPrefix("drive:") {
                    guard let drive = driveID(token) else { return .failure(Failure(code: "malformed_scope")) }
                    guard !set.drives.contains(drive) else { return .failure(Failure(code: "duplicate_drive")) }
                    set.driveScopes.append(token)
                } else {
                    return .failure(Failure(code: "unknown_scope"))
                }
            }
        }
        if let code = set.conflict { return .failure(Failure(code: code)) }
        return .success(set)
    }

    /// The combination rules, in the order scopes.ts:231-307 applies them.
    private var conflict: String? {
        let hasDrives = !drives.isEmpty
        if account && hasDrives { return "account_drive_conflict" }
        if manageKeys && (account || hasDrives) { return "manage_keys_conflict" }
        if allDrives && (account || manageKeys || hasDrives) { return "all_drives_conflict" }
        if activateKeyID != nil && (account || manageKeys || allDrives || offlineAccess || updateKeyID != nil || hasDrives) {
            return "activate_key_not_alone"
        }
        if updateKeyID != nil {
            if account || manageKeys || allDrives || offlineAccess { return "update_key_conflict" }
            if !hasDrives { return "update_key_without_drive" }
        }
        if offlineAccess && !account && !manageKeys && !allDrives && !hasDrives { return "offline_access_alone" }
        if newKeyName != nil && !((allDrives || hasDrives) && updateKeyID == nil && activateKeyID == nil) {
            return "name_without_mint_grant"
        }
        return nil
    }

    /// formatScopeSet (scopes.ts:329-346): the canonical order, drives sorted by id.
    var formatted: [String] {
        var tokens: [String] = []
        if let activateKeyID { tokens.append("activate_key:" + activateKeyID) }
        if let updateKeyID { tokens.append("update_key:" + updateKeyID) }
        if let newKeyName { tokens.append("name:" + Self.encodeURIComponent(newKeyName)) }
        if account { tokens.append("account") }
        if allDrives { tokens.append("all_drives") }
        if manageKeys { tokens.append("manage_keys") }
        if offlineAccess { tokens.append("offline_access") }
        return tokens + driveScopes.sorted { (Self.driveID($0) ?? "") < (Self.driveID($1) ?? "") }
    }

    /// JavaScript's encodeURIComponent: all but A-Z a-z 0-9 - _ . ! ~ * ' ( ) is escaped.
    static func encodeURIComponent(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-_.!~*'()")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// isScopeSubset (scopes.ts:364-414): whether a refresh may narrow `granted` to this.
    func isSubset(of granted: ScopeList) -> Bool {
        if offlineAccess && !granted.offlineAccess { return false }
        if manageKeys && !granted.manageKeys { return false }
        if allDrives && !granted.allDrives { return false }
        if let updateKeyID, updateKeyID != granted.updateKeyID { return false }
        if let activateKeyID, activateKeyID != granted.activateKeyID { return false }
        if newKeyName != granted.newKeyName { return false }
        if account { return granted.account }
        if granted.account || granted.allDrives { return true }
        // The same drive with the same role: the scopes' canonical text is equal.
        return driveScopes.allSatisfy(granted.driveScopes.contains)
    }

    /// isPureDriveGrant (scopes.ts:425-427).
    var isPureDriveGrant: Bool {
        !account && !manageKeys && !drives.isEmpty && updateKeyID == nil && activateKeyID == nil
    }

    /// RESOURCE_ID_RE, /^[a-z0-9]{1,32}$/ (scopes.ts:12): cuid2 ids, as the seeded drive's is.
    static func isResourceID(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count)
            && text.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// parseDriveScope (scopes.ts:119-139): the drive id of a well-formed drive scope.
    static func driveID(_ token: String) -> String? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, isResourceID(parts[1]) else { return nil }
        switch parts.count {
        case 2: return parts[1]
        case 3 where parts[2] == "admin" || parts[2] == "member": return parts[1]
        case 4 where parts[2] == "role" && isResourceID(parts[3]): return parts[1]
        default: return nil
        }
    }
}

extension String {
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
