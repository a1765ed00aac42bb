import Hummingbird
import PSCore

/// Errors in the shape OpenAI's API (and the servers copying it) answers with:
/// `{"error":{"message":…,"type":…,"param":…,"code":…}}`.
enum OpenAIError {
    static func body(message: String, type: String, param: String? = nil, code: String? = nil) -> JSON {
        ["error": [
            "message": .string(message), "type": .string(type),
            "param": param.map(JSON.string) ?? .null, "code": code.map(JSON.string) ?? .null,
        ]]
    }

    static func refusal(
        _ status: HTTPResponse.Status, _ message: String, type: String = "invalid_request_error",
        param: String? = nil, code: String? = nil
    ) -> Refusal {
        Refusal(Reply.json(body(message: message, type: type, param: param, code: code), status: status))
    }

    static func invalid(_ message: String, param: String? = nil, code: String? = nil) -> Refusal {
        refusal(.badRequest, message, param: param, code: code)
    }

    static func missing(_ param: String) -> Refusal {
        invalid("Missing required parameter: '\(param)'.", param: param, code: "missing_required_parameter")
    }

    static func wrongType(_ param: String, expected: String, got value: JSON) -> Refusal {
        invalid(
            "Invalid type for '\(param)': expected \(expected), but got \(typeName(value)) instead.", param: param,
            code: "invalid_type")
    }

    static func unknownModel(_ model: String) -> Refusal {
        refusal(
            .notFound, "The model `\(model)` does not exist or you do not have access to it.", code: "model_not_found")
    }

    /// How OpenAI names a JSON value's type in its validation messages.
    static func typeName(_ value: JSON) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .real, .number: return "a decimal"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The body an armed status fault answers with on this dialect.
    static func body(for status: Int) -> JSON {
        switch status {
        case 401:
            return body(
                message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key")
        case 402, 429:
            return body(
                message: status == 402
                    ? "You exceeded your current quota, please check your plan and billing details."
                    : "Rate limit reached for requests. Please try again shortly.",
                type: status == 402 ? "insufficient_quota" : "requests",
                code: status == 402 ? "insufficient_quota" : "rate_limit_exceeded")
        case 403: return body(message: "You are not allowed to use this model.", type: "invalid_request_error")
        case 404: return body(message: "Not found.", type: "invalid_request_error")
        case 409: return body(message: "Conflict: the request collided with another one.", type: "invalid_request_error")
        case 503: return body(message: "The server is overloaded or not ready yet.", type: "server_error")
        default: return body(message: "The server had an error while processing your request.", type: "server_error")
        }
    }
}
