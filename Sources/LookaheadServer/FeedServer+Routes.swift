import Foundation
import Hummingbird
import Logging

extension FeedServer {
    /// What a valid request asks for.
    enum Resource {
        case json([UInt8])
        case png([UInt8])
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
        let total = configuration.itemCount
        let offset = try query.integer("offset", in: 0...Int.max)
        let limit = try query.integer("limit", in: 1...FeedQuery.maximumPageLimit)
        guard offset != nil || limit != nil else {
            return .json(Array(("[" + (0..<total).map { String($0 + 1) }.joined(separator: ",") + "]").utf8))
        }
        guard let offset, let limit else {
            throw BadParameter(
                description:
                    "parameters 'offset' and 'limit' go together; got only '\(offset == nil ? "limit" : "offset")'")
        }
        let ids = offset < total ? Array((offset + 1)...min(total, offset + limit)) : []
        let list = ids.map(String.init).joined(separator: ",")
        return .json(Array("{\"ids\":[\(list)],\"limit\":\(limit),\"offset\":\(offset),\"total\":\(total)}".utf8))
    }

    func item(id: Int, _ query: FeedQuery) throws(BadParameter) -> Resource {
        let bytes = try query.integer("bytes", in: 0...FeedQuery.maximumPaddedBytes)
        guard (1...max(configuration.itemCount, 1)).contains(id), configuration.itemCount > 0 else {
            return .notFound("no item \(id): ids are 1...\(configuration.itemCount)")
        }
        return .json(FeedItemRecord(id: id, seed: configuration.seed).json(paddedTo: bytes))
    }

    func image(id: Int, _ query: FeedQuery) throws(BadParameter) -> Resource {
        let size = try query.integer("size", in: FeedQuery.imageSizes) ?? FeedQuery.defaultImageSize
        guard (1...max(configuration.itemCount, 1)).contains(id), configuration.itemCount > 0 else {
            return .notFound("no item \(id): ids are 1...\(configuration.itemCount)")
        }
        let colour = FeedItemRecord(id: id, seed: configuration.seed).colour
        let png = PNGEncoder.encode(width: size, height: size) { _, y in
            // Darker towards the bottom, so the image is not one flat colour.
            let shade = 255 - 128 * y / max(size - 1, 1)
            return (
                UInt8(Int(colour.red) * shade / 255), UInt8(Int(colour.green) * shade / 255),
                UInt8(Int(colour.blue) * shade / 255)
            )
        }
        return .png(png)
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
            try await waitWatchingClient(
                request, latency: latency, stall: fault == .stall, ticket: ticket, logger: logger)
            headers[.connection] = "close"
        }

        let bytes: [UInt8]
        switch resource {
        case .json(let json):
            headers[.contentType] = "application/json; charset=utf-8"
            bytes = json
        case .png(let png):
            headers[.contentType] = "image/png"
            bytes = png
        case .notFound:
            preconditionFailure("not-found resources are answered above")
        }

        switch fault {
        case .serverError:
            logger.warning("injected server error")
            return respond(
                .internalServerError, error: "injected server error (request \(ticket.number))", headers: headers,
                ticket: ticket)
        case .truncate:
            return respond(
                .ok, headers: headers, bytes: bytes, truncatedAt: bytes.count / 2, ticket: ticket, logger: logger)
        case .malformed:
            let malformed = Array("{\"error\": injected malformed body".utf8) + bytes.prefix(bytes.count / 2)
            return respond(.ok, headers: headers, bytes: malformed, ticket: ticket, logger: logger)
        case .stall, nil:
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
        let body = Array("{\"error\":\(Response.jsonString(message))}".utf8)
        return respond(status, headers: headers, bytes: body, ticket: ticket, logger: logger)
    }

    /// A response whose body is streamed through the shared link (if any) and
    /// accounted for in the statistics; `truncatedAt` cuts it short and closes
    /// the connection.
    private func respond(
        _ status: HTTPResponse.Status, headers: HTTPFields, bytes: [UInt8], truncatedAt: Int? = nil,
        ticket: RequestTicket, logger: Logger
    ) -> Response {
        let link = self.link
        let sent = truncatedAt ?? bytes.count
        let chunkSize = link?.chunkSize ?? max(sent, 1)
        let body = ResponseBody(contentLength: bytes.count) { [sleep, stopSignal] writer in
            do {
                var start = 0
                repeat {
                    let end = min(start + chunkSize, sent)
                    if let link { try await stopSignal.sleep(link.reserve(bytes: end - start), using: sleep) }
                    // Out of flight once the last bytes are handed over: see FeedServerStatistics.inFlight.
                    if end == sent { ticket.release() }
                    if end > start { try await writer.write(ByteBuffer(bytes: bytes[start..<end])) }
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
