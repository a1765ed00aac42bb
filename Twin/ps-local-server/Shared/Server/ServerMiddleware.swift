import Hummingbird
import PSCore

/// Runs around every route: records the request (secrets redacted), applies an armed status
/// fault, turns refusals into their responses and logs one line per request on stderr.
struct ServerMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let state: ServerState

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var request = request
        let path = request.uri.path
        var response: Response
        if path.hasPrefix("/_test/") {
            response = try await answer(request, context: context, next: next)
        } else {
            var body: JSON?
            if request.method != .get && request.method != .head {
                let buffer = try await request.collectBody(upTo: Request.maxBodyBytes)
                body = try? JSON.parse(bytes: Array(buffer.readableBytesView))
            }
            state.requests.record(request, body: body)
            if !state.dialect.reportsStatusFaultInStream(path: path), let fault = state.faults.takeStatus(path: path) {
                var headers = HTTPFields()
                if let seconds = fault.retryAfter { headers[.retryAfter] = String(seconds) }
                response = fault.body.map { Reply.json($0, status: HTTPResponse.Status(code: fault.status), headers: headers) }
                    ?? Reply.error(fault.status, dialect: state.dialect, headers: headers)
            } else {
                response = try await answer(request, context: context, next: next)
            }
        }
        log(request, String(response.status.code))
        return response
    }

    private func log(_ request: Request, _ outcome: String) {
        guard !state.quiet else { return }
        Diagnostics.writeLine("\(request.method.rawValue) \(request.uri.path) \(outcome)")
    }

    private func answer(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let dropped as ConnectionDropped {
            log(request, "dropped (fault)")
            throw dropped
        } catch let refusal as Refusal {
            return refusal.response
        } catch let error as HTTPError {
            if state.dialect == .gemini && (error.status == .notFound || error.status == .methodNotAllowed) {
                return ExpressPages.notFound(request)  // no route has this path
            }
            let message = error.body ?? (error.status == .notFound ? "Not found" : error.status.reasonPhrase)
            if state.dialect == .lucid && (error.status == .notFound || error.status == .methodNotAllowed) {
                // lucid-agent src/index.ts:125-127: Express's last handler, for any path or method no route has.
                return Reply.json(["error": "Not found"], status: .notFound)
            }
            if state.dialect == .openai {
                return Reply.json(OpenAIError.body(message: message, type: "invalid_request_error"), status: error.status)
            }
            return Reply.json(["error": .string(message)], status: error.status)
        }
    }
}
