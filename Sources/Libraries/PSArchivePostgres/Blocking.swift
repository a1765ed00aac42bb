import Dispatch

/// Runs async PostgresNIO calls for the synchronous ArchiveStore: the calling thread waits
/// while a task does the work on the client's event loop.
enum Blocking {
    final class Box<T>: @unchecked Sendable { var result: Result<T, Error>? }

    static func run<T>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }
}
