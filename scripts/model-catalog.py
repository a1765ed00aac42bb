#!/usr/bin/env python3
"""Writes the model catalog ps-local-server serves, read from a PageSpace checkout.

    scripts/model-catalog.py PAGESPACE_GIT_DIR [CURRENT_COMMIT [LEGACY_COMMIT]]

Reads, at each commit (git show, so a bare mirror does), the providers and their models
(AI_PROVIDERS in apps/web/src/lib/ai/core/ai-providers-config.ts), the provider names the
settings route accepts (ALL_PROVIDER_NAMES, apps/web/src/lib/ai/core/ai-utils.ts), the
default pair (packages/lib/src/ai/model-defaults.ts), the free-tier models and the admin-only
and dynamic providers, and each model's context window where the catalog route gives it
(MODEL_CONTEXT_WINDOWS, packages/lib/src/monitoring/ai-monitoring.ts); writes Twin/ps-local-server/PageSpace/Models/model-catalog.json with the
commit each part came from. The legacy generation (late 2025) has no model-defaults.ts and
no sets: what it lacks is left out; from its settings route (apps/web/src/app/api/ai/settings/
route.ts) it takes the default pair, the providers GET reports with the flag each carries
(hasApiKey or hasBaseUrl), the providers POST takes a key for with their display names, and
the providers PATCH may select.
"""
import json
import os
import re
import subprocess
import sys

CONFIG = "apps/web/src/lib/ai/core/ai-providers-config.ts"
UTILS = "apps/web/src/lib/ai/core/ai-utils.ts"
DEFAULTS = "packages/lib/src/ai/model-defaults.ts"
LEGACY_SETTINGS = "apps/web/src/app/api/ai/settings/route.ts"
CATALOG = "apps/web/src/lib/ai/core/model-catalog.ts"
MONITORING = "packages/lib/src/monitoring/ai-monitoring.ts"


def show(git_dir, commit, path):
    result = subprocess.run(["git", "-C", git_dir, "show", f"{commit}:{path}"], capture_output=True, text=True)
    return result.stdout if result.returncode == 0 else None


def full_commit(git_dir, commit):
    result = subprocess.run(["git", "-C", git_dir, "rev-parse", "--verify", commit + "^{commit}"], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"model-catalog: {git_dir}: no commit {commit}: {result.stderr.strip()}")
    return result.stdout.strip()


def providers(config):
    """AI_PROVIDERS: provider → {name, models: [ids in source order]}, in source order."""
    block = config[config.index("export const AI_PROVIDERS = {"):]
    block = block[:block.index("\n}")]
    result, current, in_models = {}, None, False
    for line in block.splitlines()[1:]:
        if m := re.match(r"^  ([A-Za-z_0-9]+): \{", line):
            current = m.group(1)
            result[current] = {"name": current, "models": [], "modelNames": {}}
            in_models = False
        elif current and (m := re.match(r"^    name: '([^']*)'", line)):
            result[current]["name"] = m.group(1)
        elif current and re.match(r"^    models: \{", line):
            in_models = True
        elif in_models and re.match(r"^    \},?", line):
            in_models = False
        elif in_models and (m := re.match(r"^\s+'([^']+)':\s*'([^']*)'", line)):
            result[current]["models"].append(m.group(1))
            result[current]["modelNames"][m.group(1)] = m.group(2)
    return result


def dynamic_catalog_providers(config, dynamic):
    """DYNAMIC_CATALOG_PROVIDERS (isDynamicModelProvider, what /api/ai/models calls dynamic):
    DYNAMIC_MODEL_PROVIDERS spread, plus its own strings; None where the source has no such set."""
    if (m := re.search(r"const DYNAMIC_CATALOG_PROVIDERS\b[^=]*=\s*new Set<string>\(\[(.*?)\]", config, re.S)) is None:
        return None
    body = re.sub(r"//[^\n]*", "", m.group(1))
    spread = (dynamic or []) if "...DYNAMIC_MODEL_PROVIDERS" in body else []
    return spread + [name for name in re.findall(r"'([^']+)'", body) if name not in spread]


def string_set(text, name):
    """`export const NAME = new Set<string>([...])` or `export const NAME = [...]`: its strings."""
    if not text or (m := re.search(rf"export const {name}\b[^=]*=\s*(?:new Set<string>\()?\[(.*?)\]", text, re.S)) is None:
        return None
    body = re.sub(r"//[^\n]*", "", m.group(1))
    return re.findall(r"'([^']+)'", body)


def constant(text, name):
    if not text or (m := re.search(rf"export const {name} = '([^']*)'", text)) is None:
        return None
    return m.group(1)


def functions(text):
    """The route file's exported handlers: name → body (up to the next export)."""
    parts = re.split(r"\nexport async function ", text)
    return {part.split("(", 1)[0]: part for part in parts[1:]}


def includes_list(body):
    """The first `['a', 'b', ...].includes(provider)` in a handler: its strings."""
    if (m := re.search(r"\[([^\]]*)\]\.includes\(provider\)", body)) is None:
        return None
    return re.findall(r"'([^']+)'", m.group(1))


def context_windows(git_dir, commit, models):
    """MODEL_CONTEXT_WINDOWS of the catalog's models, when buildModelCatalog gives them (its
    contextWindow); None at a commit whose catalog does not."""
    catalog = show(git_dir, commit, CATALOG)
    if catalog is None or "contextWindow: MODEL_CONTEXT_WINDOWS[" not in catalog:
        return None
    text = show(git_dir, commit, MONITORING) or ""
    block = text[text.index("export const MODEL_CONTEXT_WINDOWS = {"):]
    block = block[:block.index("\n}")]
    windows = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s+'([^']+)': (\d+),", block, re.M)}
    return {model: windows[model] for model in models if model in windows}


def legacy_settings(text):
    """What the late-2025 settings route says about providers; None when it is not that route."""
    handlers = functions(text)
    get, post, patch = handlers.get("GET", ""), handlers.get("POST", ""), handlers.get("PATCH", "")
    if (m := re.search(r"\n      providers: \{\n(.*?)\n      \},\n", get, re.S)) is None:
        return None
    reported = re.findall(r"^        ([a-z_]+): \{\n\s+isConfigured: [^\n]*\n\s+(has[A-Za-z]+):", m.group(1), re.M)
    names = {}
    if (n := re.search(r"const providerName: Record<string, string> = \{(.*?)\}", post, re.S)) is not None:
        names = dict(re.findall(r"([a-z_]+): '([^']+)'", n.group(1)))
    settings = {"reported": [{"id": provider, "flag": flag} for provider, flag in reported],
                "keyProviders": includes_list(post), "keyProviderNames": names or None,
                "selectableProviders": includes_list(patch)}
    return {key: value for key, value in settings.items() if value}


def generation(git_dir, commit):
    config = show(git_dir, commit, CONFIG)
    utils = show(git_dir, commit, UTILS)
    defaults = show(git_dir, commit, DEFAULTS)
    catalog = {"commit": full_commit(git_dir, commit), "providers": providers(config)}
    catalog["providerNames"] = string_set(utils, "ALL_PROVIDER_NAMES")
    catalog["defaultProvider"] = constant(defaults, "DEFAULT_AI_PROVIDER")
    catalog["defaultModel"] = constant(defaults, "DEFAULT_AI_MODEL")
    catalog["freeTierModels"] = string_set(config, "FREE_TIER_MODELS")
    catalog["adminOnlyProviders"] = string_set(config, "ADMIN_ONLY_PROVIDERS")
    catalog["dynamicModelProviders"] = string_set(config, "DYNAMIC_MODEL_PROVIDERS")
    catalog["dynamicCatalogProviders"] = dynamic_catalog_providers(config, catalog["dynamicModelProviders"])
    catalog["onpremProviders"] = string_set(config, "ONPREM_ALLOWED_PROVIDERS")
    models = [model for provider in catalog["providers"].values() for model in provider["models"]]
    catalog["contextWindows"] = context_windows(git_dir, commit, models)
    if catalog["defaultModel"] is None and (settings := show(git_dir, commit, LEGACY_SETTINGS)):
        # The legacy settings route: currentModel: user?.currentAiModel || 'glm-4.5-air'.
        if m := re.search(r"currentModel: user\?\.currentAiModel \|\| '([^']+)'", settings):
            catalog["defaultModel"] = m.group(1)
        if m := re.search(r"currentProvider: user\?\.currentAiProvider \|\| '([^']+)'", settings):
            catalog["defaultProvider"] = m.group(1)
        catalog["settings"] = legacy_settings(settings)
    return {key: value for key, value in catalog.items() if value is not None}


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) >= 2 else 2)
    git_dir = sys.argv[1]
    current = sys.argv[2] if len(sys.argv) > 2 else "HEAD"
    legacy = sys.argv[3] if len(sys.argv) > 3 else "458264c5b"
    out = {"source": "github.com/2witstudios/PageSpace, read by scripts/model-catalog.py",
           "current": generation(git_dir, current), "legacy": generation(git_dir, legacy)}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Twin", "ps-local-server", "PageSpace", "Models", "model-catalog.json")
    with open(path, "w") as file:
        json.dump(out, file, indent=1)
        file.write("\n")


if __name__ == "__main__":
    main()
