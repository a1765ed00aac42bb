import Synchronization

/// The demo user's provider and model selection (users.currentAiProvider/currentAiModel),
/// in memory only, as GET and PATCH /api/ai/settings read and change it.
final class AISettingsStore: Sendable {
    struct Selection: Sendable {
        var provider = ModelCatalog.defaultProvider
        var model: String? = ModelCatalog.defaultModel
    }

    private let selection = Mutex(Selection())

    var current: Selection { selection.withLock { $0 } }

    func select(provider: String, model: String?) {
        selection.withLock { $0 = Selection(provider: provider, model: model) }
    }
}
