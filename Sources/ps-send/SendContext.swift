import PSCore
import PSNet

/// Where the user is, as the web app tells the assistant: the Global assistant gets
/// `locationContext {currentDrive:{id,name,slug}}`, a Page AI agent `pageContext {pageId,
/// driveId, driveName, driveSlug}`. The drive's name and slug come from `GET /api/drives`; if
/// that fails the id alone is sent.
enum SendContext {
    static func location(drive: String, client: APIClient) -> JSON {
        ["currentDrive": .object(describe(drive: drive, client: client))]
    }

    static func page(_ pageID: String, drive: String?, client: APIClient) -> JSON {
        var context = JSONObject()
        context["pageId"] = .string(pageID)
        context["pageType"] = "AI_CHAT"
        if let drive {
            let info = describe(drive: drive, client: client)
            context["driveId"] = info["id"]
            context["driveName"] = info["name"]
            context["driveSlug"] = info["slug"]
        }
        return .object(context)
    }

    private static func describe(drive: String, client: APIClient) -> JSONObject {
        var result = JSONObject()
        result["id"] = .string(drive)
        let drives = (try? client.get("/api/drives"))?.arrayValue ?? []
        if let match = drives.first(where: { $0["id"]?.stringValue == drive }) {
            result["name"] = match["name"]
            result["slug"] = match["slug"]
        }
        return result
    }
}
