import Hummingbird
import PSCore
import Synchronization

/// What the server received, for tests to check which headers and bodies a client sent.
/// Secrets are replaced by "<redacted>" before anything is kept.
final class RequestLog: Sendable {
    static let redactedHeaders: Set<String> = ["authorization", "x-csrf-token", "cookie"]
    static let redactedFields: Set<String> = ["password", "token", "csrfToken", "deviceToken", "apiKey"]
    static let capacity = 10_000

    private let entries = Mutex<[JSON]>([])

    func record(_ request: Request, body: JSON?) {
        var headers = JSONObject()
        for field in request.headers {
            let name = field.name.canonicalName
            let value = Self.redactedHeaders.contains(name) ? "<redacted>" : field.value
            if let previous = headers[name]?.stringValue {
                headers[name] = .string(previous + ", " + value)
            } else {
                headers[name] = .string(value)
            }
        }
        var entry = JSONObject()
        entry["method"] = .string(request.method.rawValue)
        entry["path"] = .string(request.uri.path)
        entry["query"] = request.uri.query.map(JSON.string)
        entry["headers"] = .object(headers)
        entry["body"] = body.map(Self.redacting)
        // When it arrived (milliseconds since 1970), for tests that measure a client's pace.
        entry["receivedAt"] = .integer(Timestamp.now())
        entries.withLock { log in
            if log.count >= Self.capacity { log.removeFirst(log.count / 2) }
            log.append(.object(entry))
        }
    }

    var all: [JSON] { entries.withLock { $0 } }

    func clear() { entries.withLock { $0.removeAll() } }

    static func redacting(_ json: JSON) -> JSON {
        switch json {
        case .object(let object):
            var copy = JSONObject()
            for (key, value) in object {
                copy[key] = redactedFields.contains(key) ? "<redacted>" : redacting(value)
            }
            return .object(copy)
        case .array(let items):
            return .array(items.map(redacting))
        default:
            return json
        }
    }
}
