import PSCore

// `GET /api/subscriptions/status` (apps/web/src/app/api/subscriptions/status/route.ts), with
// a browser session only (requireAuth: anything else is a plain-text 401 "Unauthorized").
extension PageSpaceAdapter: SubscriptionAPI {
    /// `{subscriptionTier, stripeCustomerId, subscription: {status, currentPeriodStart,
    /// currentPeriodEnd, cancelAtPeriodEnd, scheduledPriceId, scheduledChangeDate} | null,
    /// storage: {used, quota, tier}}`, as the server gives it (sizes in bytes).
    public func subscriptionStatus() throws -> JSON {
        try sessionOnly("show the subscription") { try client.get("/api/subscriptions/status") }
    }
}
