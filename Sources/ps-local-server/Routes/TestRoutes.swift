import Hummingbird
import PSCore

/// `/_test/*`: arm faults and read the request log. Only this test server has them, and
/// they need no credentials.
struct TestRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        router.post("/_test/faults") { request, _ in
            var request = request
            let spec = try await request.jsonBody()
            try state.faults.arm(spec)
            return Reply.json(["armed": spec])
        }
        router.delete("/_test/faults") { _, _ in
            state.faults.clear()
            return Reply.json(["cleared": true])
        }
        router.get("/_test/requests") { _, _ in
            Reply.json(.array(state.requests.all))
        }
        router.delete("/_test/requests") { _, _ in
            state.requests.clear()
            return Reply.json(["cleared": true])
        }
    }
}
