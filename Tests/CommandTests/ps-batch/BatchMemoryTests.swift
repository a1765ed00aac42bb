import Foundation
import Testing
import TestSupport

/// ps-batch keeps the jobs it has checked on disk, not in memory: a batch of large messages
/// costs about one of them, however many there are.
@Suite struct BatchMemoryTests {
    /// The peak memory (KiB) of `script` run by bash in `sandbox`, and its stderr.
    static func peak(_ sandbox: NetworkSandbox, _ script: String) throws -> (kib: Int, stderr: String) {
        let python = """
            import resource, subprocess, sys
            run = subprocess.run(["bash", "-c", sys.argv[1]], stderr=subprocess.PIPE)
            sys.stderr.buffer.write(run.stderr)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let result = try sandbox.run("/usr/bin/python3", ["-c", python, script])
        let kib = Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        return (kib, result.stderrText)
    }

    @Test func sixteenMessagesOfHalfAMegabyteCostAboutOne() throws {
        let port = try FreePort.take()
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_TOKEN": LocalServer.sessionToken,
                                                 "PAGESPACE_API_URL": "http://127.0.0.1:\(port)", "PS_RETRIES": "0"])
        let jobs = sandbox.directory + "/jobs.ndjson"
        let word = String(repeating: "plain words here ", count: 30_000)
        var lines = ""
        for number in 1...16 { lines += "{\"id\":\"j\(number)\",\"message\":\"\(word)\"}\n" }
        try lines.write(toFile: jobs, atomically: true, encoding: .utf8)
        let one = sandbox.directory + "/one.ndjson"
        try ("{\"id\":\"j1\",\"message\":\"\(word)\"}\n").write(toFile: one, atomically: true, encoding: .utf8)

        // Nothing listens at the port: every job fails at once (exit 9), after it was read back.
        let single = try Self.peak(sandbox, "ps-batch \(one) > /dev/null")
        let many = try Self.peak(sandbox, "ps-batch \(jobs) > /dev/null")
        #expect(many.stderr.contains("16 jobs: 0 ok, 16 failed"), "\(many.stderr)")
        // Held in memory, the 16 messages would add 8 MB at least.
        #expect(single.kib > 0 && many.kib - single.kib < 3 * 1024, "8 MB of jobs: \(many.kib) KiB, one job: \(single.kib) KiB")
    }
}
