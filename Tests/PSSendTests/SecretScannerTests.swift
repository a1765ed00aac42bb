import PSCore
import PSSend
import Testing

/// The fake secrets are put together at run time, so that this file holds none of their shapes.
enum FakeSecrets {
    static func repeated(_ piece: String, _ count: Int) -> String { String(repeating: piece, count: count) }
    static let awsKeyID = "AKIA" + "Q3EGRTXZ7WJMKN2P"
    static let awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
    static let github = "ghp" + "_" + repeated("aB3dE", 7) + "x"
    static let githubFine = "github" + "_pat_" + repeated("A1b2C", 16) + "zz"
    static let gitlab = "glpat" + "-" + repeated("x9Y8z", 4)
    static let slack = "xoxb" + "-1234567890123-1234567890123-AbCdEfGhIjKl"
    static let stripe = "sk" + "_live_" + repeated("4eC39Hq", 3)
    static let openAI = "sk" + "-proj-" + repeated("Ab1_Cd2-", 8)
    static let anthropic = "sk" + "-ant-api03-" + repeated("A1b", 31) + "AA"
    static let jwt = "ey" + "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "ey" + "JzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ."
        + "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    static let gcpAPIKey = "AI" + "za" + "SyD" + repeated("x7Q_", 8)
    static let mcp = "mcp" + "_" + repeated("Zk3_", 8)
    static let session = "ps" + "_sess_" + repeated("Rt9-", 8)
    static let privateKey = "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA" + repeated("q", 40) + "\n"
        + repeated("Zm9v", 16) + "\n-----END RSA PRIVATE KEY-----"
}

@Suite struct SecretScannerTests {
    @Test(arguments: [
        (FakeSecrets.awsKeyID, "aws-access-key-id"), (FakeSecrets.github, "github-token"),
        (FakeSecrets.githubFine, "github-fine-grained-pat"), (FakeSecrets.gitlab, "gitlab-pat"),
        (FakeSecrets.slack, "slack-token"), (FakeSecrets.stripe, "stripe-key"), (FakeSecrets.openAI, "openai-api-key"),
        (FakeSecrets.anthropic, "anthropic-api-key"), (FakeSecrets.jwt, "jwt"), (FakeSecrets.gcpAPIKey, "gcp-api-key"),
        (FakeSecrets.mcp, "pagespace-mcp-token"), (FakeSecrets.session, "pagespace-session-token"),
    ])
    func eachTokenShapeIsFoundAndRedactedAlone(secret: String, kind: String) {
        let text = "line one\nuse \(secret) here\n"
        let found = SecretScanner.findings(in: text)
        #expect(found.map(\.kind) == [kind])
        #expect(found.first?.line == 2)
        #expect(SecretScanner.redact(text).text == "line one\nuse [REDACTED:\(kind)] here\n")
    }

    @Test func aPrivateKeyBlockIsRedactedWhole() {
        let text = "key:\n\(FakeSecrets.privateKey)\nafter"
        let (redacted, found) = SecretScanner.redact(text)
        #expect(found.map(\.kind) == ["private-key"] && found[0].line == 2)
        #expect(redacted == "key:\n[REDACTED:private-key]\nafter")
        // A service-account file holds it escaped in a JSON string.
        let json = #"{"type": "service_account", "private_key": "\#(FakeSecrets.privateKey.replacingNewlines)\n", "x": 1}"#
        #expect(SecretScanner.redact(json).text == #"{"type": "service_account", "private_key": "[REDACTED:private-key]\n", "x": 1}"#)
    }

    @Test func assignmentsOfLiteralsAreFound() {
        let env = "DB_HOST=db\nDB_PASSWORD=Tr0ub4dor&3x\n+    api_key: \"9f8e7d6c5b4a39281706\"\nsecret = 'hunter2hunter2'\n"
        let found = SecretScanner.findings(in: env)
        #expect(found.map(\.line) == [2, 3, 4])
        #expect(Set(found.map(\.kind)) == ["password-assignment"])
        #expect(SecretScanner.redact("PASSWORD=Tr0ub4dor&3x\n").text == "PASSWORD=[REDACTED:password-assignment]\n")
        let aws = "aws_secret_access_key = \"\(FakeSecrets.awsSecret)\""
        #expect(SecretScanner.findings(in: aws).map(\.kind).contains("aws-secret-access-key")
            || SecretScanner.findings(in: aws).map(\.kind) == ["password-assignment"])
        #expect(!SecretScanner.redact(aws).text.contains(FakeSecrets.awsSecret))
    }

    @Test func ordinaryCodeHashesAndUUIDsAreNotSecrets() {
        let ordinary = """
            let password = config.password
            password = os.environ["DB_PASSWORD"]
            const token = getToken();
            if (password == null) { return }
            secret: ${{ secrets.DEPLOY_KEY }}
            password: <your password>
            PASSWORD=changeme
            api_key = ******
            commit 3f786850e387550fdab836ed7e6dc881de23001b
            sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            id = 123e4567-e89b-12d3-a456-426614174000
            func tokenize(_ text: String) -> [Token]
            The key idea is that the secret of good code is simplicity.
            import os, sys  # skip tokens
            AKIAISSHORT and sk-notakey and ghp_short
            """
        #expect(SecretScanner.findings(in: ordinary) == [])
        #expect(SecretScanner.findings(in: "") == [])
    }

    @Test func multiByteTextAroundASecretStaysWhole() {
        let text = "héllo → \(FakeSecrets.github) 漢字"
        #expect(SecretScanner.redact(text).text == "héllo → [REDACTED:github-token] 漢字")
    }
}

extension String {
    var replacingNewlines: String { split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n") }
}
