/// Which models can take images: hasVisionCapability (apps/web/src/lib/ai/core/vision-models.ts),
/// its table first (whole id, then without a "provider/" prefix), then its guesses by name.
enum VisionModels {
    static func hasVision(_ model: String) -> Bool {
        if let listed = listed(model) { return listed }
        let bare = model.firstIndex(of: "/").map { String(model[model.index(after: $0)...]) } ?? model
        if bare != model, let listed = listed(bare) { return listed }
        let lower = bare.lowercased()
        if lower.contains("vision") || lower.contains("-v-") { return true }
        if lower.contains("gpt-5") || lower.contains("gpt-4o") || lower.contains("gpt-4.1") { return true }
        let claude = ["claude-3", "claude-4", "claude-5", "claude-opus-4", "claude-sonnet-4", "claude-haiku-4"]
        if claude.contains(where: lower.contains) { return true }
        return lower.contains("gemini")
    }

    private static func listed(_ model: String) -> Bool? {
        if withVision.contains(model) { return true }
        if withoutVision.contains(model) { return false }
        return nil
    }

    /// VISION_CAPABLE_MODELS entries set to true.
    static let withVision: Set<String> = [
        "gpt-5.6-sol-pro", "gpt-5.6-sol", "gpt-5.6-terra-pro", "gpt-5.6-terra", "gpt-5.6-luna-pro", "gpt-5.6-luna",
        "gpt-5.4-pro", "gpt-5.4", "gpt-5.3-chat-latest", "gpt-5.3-codex", "gpt-5.2", "gpt-5.2-codex", "gpt-5.2-mini",
        "gpt-5.2-nano", "gpt-5.1", "gpt-5.1-codex", "gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-4.1-2025-04-14",
        "gpt-4.1-mini-2025-04-14", "gpt-4.1-nano-2025-04-14", "gpt-4o", "gpt-4o-mini", "gpt-4o-audio-preview",
        "gpt-4-turbo", "gpt-4-turbo-preview", "gpt-4-vision-preview", "gpt-4", "claude-opus-5", "claude-opus-5-fast",
        "claude-sonnet-5", "claude-fable-5", "claude-opus-4.7", "claude-opus-4.7-fast-20260512",
        "claude-opus-4-6-20260204", "claude-sonnet-4-6-20260217", "claude-opus-4.6", "claude-sonnet-4.6",
        "claude-opus-4-5-20251124", "claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001", "claude-opus-4.5",
        "claude-sonnet-4.5", "claude-haiku-4.5", "claude-opus-4-1-20250805", "claude-sonnet-4-1-20250805",
        "claude-opus-4.1", "claude-3-7-sonnet-20250219", "claude-3-5-sonnet-20241022", "claude-3-5-sonnet-20240620",
        "claude-3-5-haiku-20241022", "claude-3-opus-20240229", "claude-3-sonnet-20240229", "claude-3-haiku-20240307",
        "gemini-3.6-flash", "gemini-3.5-flash-lite", "gemini-3.1-flash-lite-image", "gemini-3.1-flash-image",
        "gemini-3-pro-image", "gemini-3.1-pro-preview", "gemini-3.1-pro-preview-customtools",
        "gemini-3.1-flash-lite-preview", "gemini-3-flash-preview", "gemini-2.5-pro", "gemini-2.5-flash",
        "gemini-2.5-flash-lite", "gemini-2.5-flash-lite-preview-06-17", "gemini-2.0-flash-exp", "gemini-1.5-pro",
        "gemini-1.5-flash", "gemini-3.5-flash", "grok-4.5", "grok-4.3", "grok-4.20", "grok-4.20-multi-agent",
        "grok-4", "grok-4-fast", "grok-4-fast-reasoning", "grok-4-fast-non-reasoning", "grok-code-fast-1",
        "grok-2-vision", "grok-2-vision-latest", "grok-2-vision-1212", "grok-vision-beta", "qwen3.7-plus",
        "qwen3.6-plus", "qwen3.6-flash", "qwen3.6-35b-a3b", "qwen3.6-27b", "qwen3.5-397b-a17b",
        "qwen3.5-plus-2026-02-15", "qwen3.5-flash", "qwen3.5-122b-a10b", "qwen3.5-35b-a3b", "qwen3.5-27b",
        "qwen3-max-thinking", "minimax-m3", "MiniMax-M2.5", "minimax-m2.5", "kimi-k3", "kimi-k2.7-code", "kimi-k2.6",
        "muse-spark-1.1", "llama-4-maverick", "llama-4-scout", "seed-2.0-lite", "seed-2.0-mini",
    ]

    /// VISION_CAPABLE_MODELS entries set to false (o1, o3 and o4 models).
    static let withoutVision: Set<String> = ["o1", "o1-mini", "o1-preview", "o3", "o3-mini", "o4-mini"]
}
