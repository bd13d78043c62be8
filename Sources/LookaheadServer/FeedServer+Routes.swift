// The feed server's routes: requests checked, then answered after their
// latency and faults.

#if Tools
import Foundation
import Hummingbird
import Logging
import Lookahead

extension FeedServer {
    /// What a valid request asks for: checked, but not built yet, so that a
    /// request waiting out its latency holds a few integers, not its body.
    enum Resource: Sendable {
        /// The id list, whole or one page (padded to a size or not).
        case topStories(page: (offset: Int, limit: Int, paddedTo: Int?)?)
        /// An item's JSON, padded to a size or not.
        case item(id: Int, paddedTo: Int?)
        /// An item's thumbnail, `size × size` pixels.
        case image(id: Int, size: Int)
        case notFound(String)
    }

    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestLimitsMiddleware())
        router.get("/v0/topstories.json") { request, _ in
            try await self.handle(request) { query throws(BadParameter) in try self.topStories(query) }
        }
        router.get("/v0/item/{id}.json") { request, context in
            try await self.handle(request) { query throws(BadParameter) in
                try self.item(id: FeedQuery.itemID(context.parameters.get("id")), query)
            }
        }
        router.get("/v0/image/{id}") { request, context in
            try await self.handle(request) { query throws(BadParameter) in
                try self.image(id: FeedQuery.itemID(context.parameters.get("id")), query)
            }
        }
        return router
    }

    // MARK: Resources

    func topStories(_ query: FeedQuery) throws(BadParameter) -> Resource {
        let offset = try query.integer("offset", in: 0...Int.max)
        let limit = try query.integer("limit", in: 1...FeedQuery.maximumPageLimit)
        let bytes = try query.integer("bytes", in: 0...FeedQuery.maximumPaddedBytes)
        guard offset != nil || limit != nil else {
            guard bytes == nil else {
                throw BadParameter(description: "parameter 'bytes' pads a page: it goes with 'offset' and 'limit'")
            }
            return .topStories(page: nil)
        }
        guard let offset, let limit else {
            throw BadParameter(
                description:
                    "parameters 'offset' and 'limit' go together; got only '\(offset == nil ? "limit" : "offset")'")
        }
        return .topStories(page: (offset, limit, bytes))
    }

    func item(id: Int, _ query: FeedQuery) throws(BadParameter) -> Resource {
        let bytes = try query.integer("bytes", in: 0...FeedQuery.maximumPaddedBytes)
        guard (1...max(configuration.itemCount, 1)).contains(id), configuration.itemCount > 0 else {
            return .notFound("no item \(id): ids are 1...\(configuration.itemCount)")
        }
        return .item(id: id, paddedTo: bytes)
    }

    func image(id: Int, _ query: FeedQuery) throws(BadParameter) -> Resource {
        let size = try query.integer("size", in: FeedQuery.imageSizes) ?? FeedQuery.defaultImageSize
        guard (1...max(configuration.itemCount, 1)).contains(id), configuration.itemCount > 0 else {
            return .notFound("no item \(id): ids are 1...\(configuration.itemCount)")
        }
        return .image(id: id, size: size)
    }

    /// The body of a found resource and its content type.
    ///
    /// - Complexity: O(1) for items (their padding is described, not built),
    ///   O(ids) for the id list, O(size²) for a thumbnail.
    func body(of resource: Resource) -> (contentType: String, bytes: ResponseBytes) {
        let json = "application/json; charset=utf-8"
        switch resource {
        case .topStories(nil):
            return (json, ResponseBytes(FeedJSON.encode((0..<configuration.itemCount).map { $0 + 1 })))
        case .topStories(let page?):
            let total = configuration.itemCount
            let ids = page.offset < total ? Array((page.offset + 1)...min(total, page.offset + page.limit)) : []
            var body = FeedJSON.TopStoriesPage(ids: ids, limit: page.limit, offset: page.offset, total: total)
            let plain = FeedJSON.encode(body)
            body.padding = ""
            return (
                json, FeedJSON.padded(plain: plain, empty: FeedJSON.encode(body), field: "padding", to: page.paddedTo)
            )
        case .item(let id, let bytes):
            return (json, FeedItemRecord(id: id, seed: configuration.seed).body(paddedTo: bytes))
        case .image(let id, let size):
            let colour = FeedItemRecord(id: id, seed: configuration.seed).colour
            let png = PNGEncoder.encode(width: size, height: size) { _, y in
                // Darker towards the bottom, so the image is not one flat colour.
                let shade = 255 - 128 * y / max(size - 1, 1)
                return (
                    UInt8(Int(colour.red) * shade / 255), UInt8(Int(colour.green) * shade / 255),
                    UInt8(Int(colour.blue) * shade / 255)
                )
            }
            return ("image/png", ResponseBytes(png))
        case .notFound:
            preconditionFailure("not-found resources have no body")
        }
    }

    // MARK: Handling

    /// Runs one request: parameters, faults, latency, then the body.
    func handle(
        _ request: Request, resource makeResource: (FeedQuery) throws(BadParameter) -> Resource
    ) async throws -> Response {
        let ticket = RequestTicket(statistics: statisticsStore)
        var logger = self.logger
        logger[metadataKey: "request"] = "\(ticket.number)"
        logger.debug("request", metadata: ["uri": "\(request.uri)"])

        let query = FeedQuery(parameters: request.uri.queryParameters)
        let resource: Resource
        let forcedLatency: Duration?
        let forcedFault: InjectedFault?
        do {
            resource = try makeResource(query)
            forcedLatency = try query.latency()
            forcedFault = try query.fault()
        } catch {
            logger.debug("bad request", metadata: ["reason": "\(error)"])
            return respond(.badRequest, error: error.description, ticket: ticket)
        }
        if case .notFound(let message) = resource {
            logger.debug("not found", metadata: ["reason": "\(message)"])
            return respond(.notFound, error: message, ticket: ticket)
        }

        let faults = configuration.faults
        let fault = forcedFault ?? faults.drawFault(seed: configuration.seed, request: ticket.number)
        let latency = forcedLatency ?? faults.drawLatency(seed: configuration.seed, request: ticket.number)
        if let fault {
            ticket.countFault(fault)
            logger.debug("injecting a fault", metadata: ["fault": "\(fault)"])
        }

        var headers: HTTPFields = [:]
        if latency > .zero || fault == .stall {
            guard claimWaitingSlot() else {
                let limit = configuration.maximumWaitingRequests
                logger.debug("refused: too many requests waiting", metadata: ["limit": "\(limit)"])
                ticket.countRefusedWait()
                return respond(
                    .serviceUnavailable,
                    error: "too many requests are waiting out an injected latency (at most \(limit) at once); "
                        + "try again later",
                    headers: [.retryAfter: "1"], ticket: ticket)
            }
            defer { waitingRequests.withLock { $0 -= 1 } }
            try await waitWatchingClient(
                request, latency: latency, stall: fault == .stall, ticket: ticket, logger: logger)
            headers[.connection] = "close"
        }

        if fault == .tooManyRequests {
            headers[.retryAfter] = "1"
            return respond(
                .tooManyRequests, error: "injected 429 (request \(ticket.number))", headers: headers, ticket: ticket)
        }
        if fault == .serverError {
            logger.warning("injected server error")
            return respond(
                .internalServerError, error: "injected server error (request \(ticket.number))", headers: headers,
                ticket: ticket)
        }
        // Built after the wait, so that waiting requests do not pin their bodies.
        let (contentType, bytes) = body(of: resource)
        headers[.contentType] = contentType
        switch fault {
        case .truncate:
            return respond(
                .ok, headers: headers, bytes: bytes, truncatedAt: bytes.count / 2, ticket: ticket, logger: logger)
        case .malformed:
            let malformed =
                ResponseBytes(Array("{\"error\": injected malformed body".utf8)) + bytes.prefix(bytes.count / 2)
            return respond(.ok, headers: headers, bytes: malformed, ticket: ticket, logger: logger)
        case .serverError, .stall, .tooManyRequests, nil:
            return respond(.ok, headers: headers, bytes: bytes, ticket: ticket, logger: logger)
        }
    }

    /// Waits out the latency, or forever for a stall, and stops as soon as the
    /// client closes its connection or the server stops.
    private func waitWatchingClient(
        _ request: Request, latency: Duration, stall: Bool, ticket: RequestTicket, logger: Logger
    ) async throws {
        do {
            try await request.body.consumeWithCancellationOnInboundClose { [stopSignal, sleep] _ in
                try await stopSignal.sleep(stall ? nil : latency, using: sleep)
            }
        } catch {
            if isStopping {
                ticket.release()
                logger.debug("request ended by the server stopping")
            } else {
                ticket.endByClient()
                logger.debug("request ended by the client while waiting", metadata: ["error": "\(error)"])
            }
            throw error
        }
    }

    private func respond(
        _ status: HTTPResponse.Status, error message: String, headers: HTTPFields = [:], ticket: RequestTicket
    ) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        let body = FeedJSON.encode(FeedJSON.ErrorBody(error: message))
        return respond(status, headers: headers, bytes: ResponseBytes(body), ticket: ticket, logger: logger)
    }

    /// Claims one of the ``FeedServerConfiguration/maximumWaitingRequests``
    /// slots; false when all are taken.
    private func claimWaitingSlot() -> Bool {
        let limit = configuration.maximumWaitingRequests
        return waitingRequests.withLock { waiting in
            guard waiting < limit else { return false }
            waiting += 1
            return true
        }
    }

    /// The chunk a body is written in without a bandwidth cap: small enough
    /// that hundreds of responses being written hold little memory.
    static let chunkSize = 64 * 1_024

    /// A response whose body is produced and streamed a chunk at a time,
    /// through the shared link (if any), and accounted for in the statistics;
    /// `truncatedAt` cuts it short and closes the connection.
    private func respond(
        _ status: HTTPResponse.Status, headers: HTTPFields, bytes: ResponseBytes, truncatedAt: Int? = nil,
        ticket: RequestTicket, logger: Logger
    ) -> Response {
        let link = self.link
        let sent = truncatedAt ?? bytes.count
        let chunkSize = link?.chunkSize ?? Self.chunkSize
        let body = ResponseBody(contentLength: bytes.count) { [sleep, stopSignal] writer in
            do {
                var start = 0
                repeat {
                    let end = min(start + chunkSize, sent)
                    if let link { try await stopSignal.sleep(link.reserve(bytes: end - start), using: sleep) }
                    // Out of flight once the last bytes are handed over: see FeedServerStatistics.inFlight.
                    if end == sent { ticket.release() }
                    if end > start { try await writer.write(ByteBuffer(bytes: bytes.bytes(in: start..<end))) }
                    start = end
                } while start < sent
                if truncatedAt != nil {
                    logger.debug("truncated the body", metadata: ["sent": "\(sent)", "promised": "\(bytes.count)"])
                    ticket.release()
                    throw TruncatedOnPurpose()
                }
                try await writer.finish(nil)
                ticket.complete()
                logger.debug("response", metadata: ["status": "\(status.code)", "bytes": "\(bytes.count)"])
            } catch let error as TruncatedOnPurpose {
                throw error
            } catch {
                if self.isStopping {
                    ticket.release()
                } else {
                    ticket.endByClient()
                    logger.debug("request ended by the client while streaming", metadata: ["error": "\(error)"])
                }
                throw error
            }
        }
        return Response(status: status, headers: headers, body: body)
    }
}

/// Thrown by a response body cut short on purpose: Hummingbird then closes the connection.
private struct TruncatedOnPurpose: Error {}
#endif
