import Foundation

/// ISO 8601 timestamps written by hand: seeding 10,000 messages must not spend its time in
/// a date formatter, and the output must be byte-identical on every machine.
enum Timestamp {
    /// Timestamps are milliseconds since 1970, as the servers' database columns keep them.
    static let second: Int64 = 1000
    static let day: Int64 = 86_400 * second

    /// When the seeded history starts: 2025-11-01T09:00:00Z.
    static let seedEpoch: Int64 = 1_761_987_600 * second

    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    static func startOfTomorrow() -> Int64 { (now() / day + 1) * day }

    /// `milliseconds` since 1970 as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC), as JavaScript's
    /// toISOString writes it.
    static func iso8601(_ milliseconds: Int64) -> String {
        let millis = ((milliseconds % 1000) + 1000) % 1000
        let seconds = (milliseconds - millis) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Howard Hinnant's civil-from-days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var out = ""
        out.reserveCapacity(24)
        out += pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        out += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "." + pad(millis, 3) + "Z"
        return out
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
