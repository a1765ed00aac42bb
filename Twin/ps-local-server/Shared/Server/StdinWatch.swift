import Foundation

/// `--watch-stdin`: a parent (the test harness, a script's coprocess) holds the write end of
/// the server's stdin; when that end closes, because the parent stopped or died, the server
/// gets SIGTERM and shuts down as it does for a signal from outside.
enum StdinWatch {
    static func start() {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(0, &buffer, buffer.count)
                if n == 0 || (n < 0 && errno != EINTR) { break }
            }
            kill(getpid(), SIGTERM)
        }
        thread.start()
    }
}
