#if Tools
import Hummingbird

/// Rejects requests the feed API never needs — a body, a huge URI — before
/// routing, and gives unknown routes a JSON `404` like every other error.
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    static var maximumURILength: Int { 4_096 }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if request.uri.description.utf8.count > Self.maximumURILength {
            return .jsonError(
                .uriTooLong,
                "the URI is \(request.uri.description.utf8.count) bytes; at most \(Self.maximumURILength) are accepted")
        }
        let declaredLength = request.headers[.contentLength].flatMap { Int($0) } ?? 0
        if declaredLength > 0 || request.headers[.transferEncoding] != nil {
            return .jsonError(.contentTooLarge, "request bodies are not accepted: every route is a GET")
        }
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            return .jsonError(.notFound, "no route for \(request.method) \(request.uri.path)")
        } catch let error as HTTPError where error.status == .methodNotAllowed {
            return .jsonError(.methodNotAllowed, "\(request.method) is not allowed on \(request.uri.path): use GET")
        }
    }
}

extension Response {
    /// A response with a JSON body `{"error": message}`.
    static func jsonError(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) -> Response {
        var body = ByteBuffer()
        body.writeBytes(FeedJSON.encode(FeedJSON.ErrorBody(error: message)))
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
#endif
