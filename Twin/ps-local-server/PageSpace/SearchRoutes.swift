import Foundation
import Hummingbird
import PSCore

/// `GET /api/search?q=&limit=`: the user's drives and the pages in them, ranked
/// (apps/web/src/app/api/search/route.ts). The demo user has no public profile, and no other
/// user does, so no `user` results come back here.
struct SearchRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator
        let agents = state.agents
        // apps/web/src/app/api/search/route.ts: verifyAuth takes a session only; anything
        // else (an MCP key, no credential) is a JSON 401 "Unauthorized".
        router.get("/api/search") { request, _ in
            do {
                _ = try auth.require(request, scope: .sessionOnly)
            } catch is Refusal {
                throw Refusal(status: .unauthorized, error: "Unauthorized")
            }
            let limit = Self.boundedLimit(request.query("limit"))
            let query = (request.query("q") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard query.count >= 2 else { return Reply.json(["results": []]) }
            return Reply.json(["results": .array(Self.results(
                query, drives: agents.drives, pages: agents.drives.flatMap { agents.pages(inDrive: $0.id) }, limit: limit))])
        }
    }

    /// parseBoundedIntParam(limit, {defaultValue: 20, min: 1, max: 50}): parseInt's leading
    /// digits, clamped; anything unreadable is the default.
    static func boundedLimit(_ raw: String?) -> Int {
        guard let raw, !raw.isEmpty else { return 20 }
        var text = Substring(raw.drop { $0 == " " || $0 == "\t" || $0 == "\n" })
        let negative = text.first == "-"
        if text.first == "-" || text.first == "+" { text = text.dropFirst() }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return 20 }
        let value = Int(digits.prefix(18)) ?? Int.max
        return min(50, max(1, negative ? -value : value))
    }

    /// `drives` are the ones the user owns (every seeded drive is the demo user's), `pages`
    /// the pages in them.
    static func results(_ query: String, drives: [SeedData.Drive], pages: [AgentDirectory.Page], limit: Int) -> [JSON] {
        let words = query.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        var hits: [(score: Int, type: Int, title: String, json: JSON)] = []
        // 1. The drives the user owns: every word in the name or the slug, at most 10
        // (route.ts:241-270).
        let named = drives.filter { drive in
            words.allSatisfy { drive.name.lowercased().contains($0) || drive.slug.lowercased().contains($0) }
        }
        for drive in named.prefix(10) {
            let score = SearchRanking.score(title: drive.name, query: query, location: .title)
            hits.append((score, 0, drive.name, [
                "id": .string(drive.id), "title": .string(drive.name), "type": "drive", "description": .string("/" + drive.slug),
                "matchLocation": "title", "relevanceScore": .integer(Int64(score)),
            ]))
        }
        // 2. Pages in every drive the user owns, not only the matched ones (route.ts:272-286):
        // every word in the title, or (documents) any word in the content; the query filters
        // first, then takes 50 (route.ts:294-317: the WHERE, then .limit(50)).
        let matching = pages.filter { page in
            let title = page.title.lowercased(), content = (page.json["content"]?.stringValue ?? "").lowercased()
            return words.allSatisfy { title.contains($0) }
                || (page.type == "DOCUMENT" && words.contains { content.contains($0) })
        }
        for page in matching.prefix(50) {
            let name = drives.first { $0.id == page.driveID }?.name ?? "Unknown Drive"
            let content = page.json["content"]?.stringValue ?? ""
            let location = SearchRanking.location(title: page.title, content: content, query: query)
            let score = SearchRanking.score(title: page.title, query: query, location: location)
            hits.append((score, 1, page.title, [
                "id": .string(page.id), "title": .string(page.title), "type": "page", "pageType": .string(page.type),
                "driveId": .string(page.driveID), "driveName": .string(name),
                "description": .string("\(page.type.lowercased()) in \(name)"),
                "matchLocation": .string(location.rawValue), "relevanceScore": .integer(Int64(score)),
            ]))
        }
        // Best score first, then drives before pages before users, then by title.
        hits.sort { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.type != b.type { return a.type < b.type }
            return a.title.lowercased() < b.title.lowercased()
        }
        return hits.prefix(limit).map(\.json)
    }
}

/// calculateRelevanceScore and getMatchLocation of apps/web/src/app/api/search/route.ts.
enum SearchRanking {
    enum Location: String { case title, content, both }

    static func words(_ text: String) -> [String] { text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init) }

    static func location(title: String, content: String, query: String) -> Location {
        let words = words(query)
        let inTitle = words.contains { title.lowercased().contains($0) }
        let inContent = words.contains { content.lowercased().contains($0) }
        if inTitle && inContent { return .both }
        return inTitle ? .title : .content
    }

    static func score(title: String, query: String, location: Location) -> Int {
        let lowerTitle = title.lowercased()
        let lowerQuery = query.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
        let queryWords = words(lowerQuery)
        var score = location == .content ? 100 : 1000
        if lowerTitle == lowerQuery { score += 5000 }
        if lowerTitle.hasPrefix(lowerQuery) { score += 2000 }
        if lowerTitle.contains(lowerQuery) { score += 1000 }
        let separators = Set(" \t\n-_.,;:!?()[]{}")
        let titleWords = lowerTitle.split { separators.contains($0) }.map(String.init)
        var exact = 0, prefix = 0, partial = 0
        for word in queryWords {
            if let match = titleWords.first(where: { $0.contains(word) }) {
                // The first title word containing it decides, as the route's loop does.
                if match == word { exact += 1 } else if match.hasPrefix(word) { prefix += 1 } else { partial += 1 }
            } else if location == .title {
                score -= 50
            }
        }
        score += exact * 500 + prefix * 300 + partial * 100
        if queryWords.count > 1 && exact + prefix + partial >= queryWords.count { score += 800 }
        return score - min(title.utf16.count, 100)  // JavaScript counts UTF-16 units
    }
}
