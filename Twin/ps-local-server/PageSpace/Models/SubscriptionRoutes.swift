import Hummingbird
import PSCore

/// The user's plan: the demo user is on --subscription-tier (free unless told) with no Stripe
/// customer, so no subscription record.
struct SubscriptionRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator
        // apps/web/src/app/api/subscriptions/status/route.ts: requireAuth turns every refusal
        // of authenticateSessionRequest into a plain-text 401 "Unauthorized" (no credential at
        // all is the middleware's plain-text "Authentication required").
        router.get("/api/subscriptions/status") { request, _ in
            do {
                _ = try auth.require(request, scope: .sessionRequest)
            } catch is Refusal where Authenticator.bearerToken(request) != nil {
                throw Refusal(Reply.text("Unauthorized", status: .unauthorized))
            }
            let tier = state.subscriptionTier
            // getStorageConfigFromSubscription: an unknown tier counts as free.
            let storageTier = Self.quotaBytes[tier] == nil ? "free" : tier
            var answer = JSONObject()
            answer["subscriptionTier"] = .string(tier)
            answer["stripeCustomerId"] = .null
            answer["subscription"] = .null
            answer["storage"] = [
                "used": .integer(SeedData.storageUsedBytes), "quota": .integer(Self.quotaBytes[storageTier] ?? 0),
                "tier": .string(storageTier),
            ]
            return Reply.json(.object(answer))
        }
    }

    /// TIER_PLAN_LIMITS quotaBytes (packages/lib/src/billing/subscription-tiers.ts).
    static let quotaBytes: [String: Int64] = [
        "free": 500 << 20, "pro": 2 << 30, "founder": 10 << 30, "business": 50 << 30,
    ]
}
