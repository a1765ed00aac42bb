import Synchronization

/// The demo user's provider and model selection (users.currentAiProvider/currentAiModel),
/// in memory only, as GET and PATCH /api/ai/settings read and change it.
final class AISettingsStore: Sendable {
    struct Selection: Sendable {
        var provider: String
        var model: String?
    }

    /// The dialect's catalog (its default pair is the starting selection).
    let catalog: ModelCatalog
    private let selection: Mutex<Selection>

    init(catalog: ModelCatalog) {
        self.catalog = catalog
        selection = Mutex(Selection(provider: catalog.defaultProvider, model: catalog.defaultModel))
    }
    /// The providers the user saved an API key for (legacy API only; the keys themselves are
    /// never kept or shown).
    private let keyed = Mutex<Set<String>>(["pagespace"])

    var current: Selection { selection.withLock { $0 } }

    func hasKey(_ provider: String) -> Bool { keyed.withLock { $0.contains(provider) } }

    func saveKey(for provider: String) { keyed.withLock { _ = $0.insert(provider) } }

    func select(provider: String, model: String?) {
        selection.withLock { $0 = Selection(provider: provider, model: model) }
    }
}
