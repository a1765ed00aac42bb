import ArgumentParser
import PSCore

/// Listing the models of a model server the user runs (Ollama, LM Studio) as the backend
/// finds them (`ps-models --provider NAME`). Their models are not in any catalog: the
/// backend asks that server when asked. An adapter adopts it when its API can say.
public protocol LocalModelListing: APIAdapter {
    func listLocalModels(_ provider: LocalModelProvider) throws -> LocalModels
}

/// The providers whose models are found at run time, by their provider names.
public enum LocalModelProvider: String, CaseIterable, Sendable, ExpressibleByArgument {
    case ollama, lmstudio

    public var displayName: String { self == .ollama ? "Ollama" : "LM Studio" }
}

/// What the backend found: the models (`ownedBy` the provider, `name` the backend's display
/// name), and, when it could not reach the model server, its words saying so; `models` are
/// then a fallback list of the backend's own, or none.
public struct LocalModels: Sendable, Equatable {
    public var models: [ModelInfo]
    public var unreachable: String?

    public init(models: [ModelInfo], unreachable: String? = nil) {
        self.models = models
        self.unreachable = unreachable
    }
}
