import PSCore

/// The shapes of secret that ps-send looks for before it sends anything: a curated subset of
/// published rule sets, translated by hand from their RE2/Python syntax to POSIX extended
/// regular expressions (regcomp(3): no `\b`, `\w`, `(?i)` or lazy repeats; a rule that ignores
/// case says so). Each names where it came from:
///   - gitleaks: config/gitleaks.toml of github.com/gitleaks/gitleaks (MIT), the rule's id;
///   - detect-secrets: detect_secrets/plugins/ of github.com/Yelp/detect-secrets (Apache-2.0);
///   - PageSpace: the token prefixes of PageSpace's auth (apps/web/src/lib/auth).
/// As in gitleaks, a rule runs only on the lines that hold one of its keywords (ignoring case),
/// which keeps a scan of ordinary text to a few memory searches.
public struct SecretRule: Sendable {
    /// Shown to the user: `[REDACTED:kind]` and "a KIND on line N".
    public let kind: String
    /// Lower-case strings one of which a line must hold for the rule to run on it.
    public let keywords: [String]
    /// A POSIX extended regular expression.
    public let pattern: String
    /// Which parenthesised group is the secret itself (0: the whole match).
    public let group: Int
    public let ignoresCase: Bool
    /// Where the rule comes from.
    public let source: String
    /// A value the rule matched but that is not a secret (a placeholder, a variable), if it can tell.
    let isPlaceholder: (@Sendable (String) -> Bool)?

    init(_ kind: String, keywords: [String], _ pattern: String, group: Int = 0, ignoresCase: Bool = false,
         source: String, isPlaceholder: (@Sendable (String) -> Bool)? = nil) {
        self.kind = kind
        self.keywords = keywords
        self.pattern = pattern
        self.group = group
        self.ignoresCase = ignoresCase
        self.source = source
        self.isPlaceholder = isPlaceholder
    }
}

extension SecretRule {
    /// What may follow a token in gitleaks' rules: `(?:[\x60'"\s;]|\\[nr]|$)`.
    static let tokenEnd = "([`'\"[:space:];]|\\\\[nr]|$)"
    /// What may come before a token where gitleaks has `\b`.
    static let tokenStart = "(^|[^[:alnum:]_])"

    /// The header line of a private key block; `privateKeyEnd` ends the block.
    public static let privateKeyKind = "private-key"
    static let privateKeyEnd = "-----END[ A-Z0-9_-]{0,100}PRIVATE KEY( BLOCK)?-----"

    public static let all: [SecretRule] = [
        // gitleaks private-key (the header; the block runs to its END line, or a JSON string's
        // escaped one, as in a GCP service-account key file's "private_key").
        SecretRule(privateKeyKind, keywords: ["-----begin"], "-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY( BLOCK)?-----",
                   ignoresCase: true, source: "gitleaks private-key"),
        SecretRule("aws-access-key-id", keywords: ["a3t", "akia", "asia", "abia", "acca"],
                   tokenStart + "((A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})([^[:alnum:]_]|$)", group: 2,
                   source: "gitleaks aws-access-token"),
        // detect-secrets AWSKeyDetector's secret_access_key pattern.
        SecretRule("aws-secret-access-key", keywords: ["aws"],
                   "aws.{0,20}(key|pwd|pw|password|pass|token).{0,20}['\"]([0-9a-zA-Z/+]{40})['\"]", group: 2,
                   ignoresCase: true, source: "detect-secrets aws.py"),
        SecretRule("gcp-api-key", keywords: ["aiza"], tokenStart + "(AIza[[:alnum:]_-]{35})" + tokenEnd, group: 2,
                   source: "gitleaks gcp-api-key"),
        SecretRule("gcp-service-account", keywords: ["private_key_id"],
                   "\"private_key_id\"[[:space:]]*:[[:space:]]*\"([0-9a-f]{40})\"", group: 1,
                   source: "gitleaks gcp-service-account (its private_key is found by private-key)"),
        SecretRule("azure-ad-client-secret", keywords: ["q~"],
                   "(^|[\\'\"`[:space:]>=:(,)])([a-zA-Z0-9_~.]{3}[0-9]Q~[a-zA-Z0-9_~.-]{31,34})($|[\\'\"`[:space:]<),])",
                   group: 2, source: "gitleaks azure-ad-client-secret"),
        SecretRule("azure-storage-key", keywords: ["accountkey="],
                   "AccountKey=([A-Za-z0-9+/]{86}==)", group: 1,
                   source: "detect-secrets azure_storage_key.py"),
        SecretRule("github-token", keywords: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], "gh[pousr]_[0-9a-zA-Z]{36}",
                   source: "gitleaks github-pat, github-oauth, github-app-token, github-refresh-token"),
        SecretRule("github-fine-grained-pat", keywords: ["github_pat_"], "github_pat_[[:alnum:]_]{82}",
                   source: "gitleaks github-fine-grained-pat"),
        SecretRule("gitlab-pat", keywords: ["glpat-"], "glpat-[[:alnum:]_-]{20}", source: "gitleaks gitlab-pat"),
        SecretRule("slack-token", keywords: ["xoxb", "xoxp", "xoxe", "xoxa", "xoxr", "xoxo", "xoxs"],
                   "xox[bpeaors]-[0-9A-Za-z-]{10,}", source: "gitleaks slack-bot-token, slack-user-token, slack-legacy-*"),
        SecretRule("slack-app-token", keywords: ["xapp"], "xapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+", ignoresCase: true,
                   source: "gitleaks slack-app-token"),
        SecretRule("stripe-key", keywords: ["sk_live", "sk_test", "sk_prod", "rk_live", "rk_test", "rk_prod"],
                   tokenStart + "((sk|rk)_(test|live|prod)_[a-zA-Z0-9]{10,99})" + tokenEnd, group: 2,
                   source: "gitleaks stripe-access-token"),
        SecretRule("anthropic-api-key", keywords: ["sk-ant-"], "sk-ant-(api03|admin01)-[a-zA-Z0-9_-]{93}AA",
                   source: "gitleaks anthropic-api-key, anthropic-admin-api-key"),
        SecretRule("openai-api-key", keywords: ["t3blbkfj"],
                   "sk-(proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,74}T3BlbkFJ[A-Za-z0-9_-]{20,74}",
                   source: "gitleaks openai-api-key"),
        SecretRule("openai-api-key", keywords: ["sk-proj-", "sk-svcacct-", "sk-admin-"],
                   "sk-(proj|svcacct|admin)-[A-Za-z0-9_-]{40,}",
                   source: "gitleaks openai-api-key, without its T3BlbkFJ marker (newer keys lack it)"),
        SecretRule("jwt", keywords: [".ey"],  // (gitleaks has "ey"; every match holds ".ey", far rarer in code)
                   tokenStart + "(ey[a-zA-Z0-9]{17,}\\.ey[a-zA-Z0-9/\\_-]{17,}\\.([a-zA-Z0-9/\\_-]{10,}={0,2})?)" + tokenEnd,
                   group: 2, source: "gitleaks jwt"),
        SecretRule("pagespace-mcp-token", keywords: ["mcp_"], tokenStart + "(mcp_[A-Za-z0-9_-]{24,})", group: 2,
                   source: "PageSpace MCP_TOKEN_PREFIX"),
        SecretRule("pagespace-session-token", keywords: ["ps_sess_"], "ps_sess_[A-Za-z0-9_-]{24,}",
                   source: "PageSpace SESSION_TOKEN_PREFIX"),
        // detect-secrets KeywordDetector (and gitleaks generic-api-key's keys): an assignment of
        // a literal to a password, secret, token or API key. The value is the secret.
        SecretRule("password-assignment",
                   keywords: ["pass", "pwd", "secret", "api_key", "apikey", "api-key", "token", "private_key", "access_key"],
                   "(passw(or)?d|pwd|secret|api[_-]?key|token|private[_-]?key|access[_-]?key)[a-z0-9_.-]{0,20}['\"]?[[:space:]]*"
                       + "(=|:=|:|=>|==)[[:space:]]*['\"`]?([^][[:space:]'\"`;,(){}$<>]{6,})([][[:space:]'\"`;,){}$<>]|$)",
                       // (the value ends where a call's `(` cannot follow: getToken() is code)
                   group: 4, ignoresCase: true, source: "detect-secrets keyword.py, gitleaks generic-api-key",
                   isPlaceholder: SecretRule.isCodeOrPlaceholder),
    ]

    /// A value beside `password =` that is code or a placeholder, not a secret: a dotted name
    /// (`config.password`), an environment reference, `changeme`, `xxxx`, `******`, `null`.
    @Sendable static func isCodeOrPlaceholder(_ value: String) -> Bool {
        let lower = value.lowercased()
        if ["null", "none", "true", "false", "nil", "undefined", "changeme", "password", "required", "optional",
            "string", "process.env", "os.environ"].contains(lower) { return true }
        if lower.hasPrefix("process.env") || lower.hasPrefix("os.environ") || lower.hasPrefix("env.") { return true }
        // x's, stars, dots or dashes only.
        if lower.allSatisfy({ "x*.-_#".contains($0) }) { return true }
        // A dotted or plain identifier with no digit: code (self.password, getPassword).
        let identifier = lower.allSatisfy { $0.isLetter || $0 == "_" || $0 == "." }
        return identifier && lower.contains(".")
    }
}
