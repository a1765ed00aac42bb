import PSCore

/// `ps-settings --subscription` on a terminal: the status record as a few "key: value" lines
/// (plan, subscription, storage), made safe; values the server leaves out are left out.
struct SubscriptionSummary {
    let status: JSON

    var lines: [String] {
        var lines = ["plan: " + (status["subscriptionTier"]?.stringValue ?? "free")]
        lines.append("subscription: " + subscription)
        if let price = status["subscription"]?["scheduledPriceId"]?.stringValue {
            let when = status["subscription"]?["scheduledChangeDate"]?.stringValue.map { " on " + Self.day($0) } ?? ""
            lines.append("scheduled change: to \(price)\(when)")
        }
        if let storage = status["storage"], let used = storage["used"]?.intValue, let quota = storage["quota"]?.intValue {
            let tier = storage["tier"]?.stringValue.map { " (\($0) tier)" } ?? ""
            lines.append("storage: \(Self.size(used)) of \(Self.size(quota)) used\(tier)")
        }
        if let customer = status["stripeCustomerId"]?.stringValue { lines.append("stripe customer: " + customer) }
        return lines.map(TerminalSafeText.sanitize)
    }

    /// "none", or "active, renews 2026-12-01" / "active, ends 2026-12-01 (cancelled at period end)".
    private var subscription: String {
        guard let subscription = status["subscription"], subscription.objectValue != nil else { return "none" }
        var text = subscription["status"]?.stringValue ?? "unknown"
        if let end = subscription["currentPeriodEnd"]?.stringValue {
            text += subscription["cancelAtPeriodEnd"]?.boolValue == true
                ? ", ends \(Self.day(end)) (cancelled at period end)" : ", renews \(Self.day(end))"
        }
        return text
    }

    /// The date of an ISO 8601 timestamp ("2026-12-01T00:00:00.000Z" → "2026-12-01"); other text as it is.
    static func day(_ timestamp: String) -> String {
        let date = timestamp.prefix(10)
        let isDate = date.count == 10 && date.enumerated().allSatisfy { index, character in
            index == 4 || index == 7 ? character == "-" : character.isASCII && character.isNumber
        }
        return isDate ? String(date) : timestamp
    }

    /// Bytes the way PageSpace's plans show them (formatTierBytes): in GB from 1 GiB up,
    /// else in MB (binary units), to two decimals at most: "500 MB", "1.5 GB", "0 MB".
    static func size(_ bytes: Int64) -> String {
        let mb = 1024.0 * 1024.0, gb = mb * 1024.0
        let inGB = Double(bytes) / gb
        let (value, unit) = inGB >= 1 ? (inGB, "GB") : (Double(bytes) / mb, "MB")
        let hundredths = Int64((value * 100).rounded())
        let fraction = hundredths % 100
        let decimals = fraction == 0 ? "" : fraction % 10 == 0 ? ".\(fraction / 10)" : ".\(fraction < 10 ? "0" : "")\(fraction)"
        return "\(hundredths / 100)\(decimals) \(unit)"
    }
}
