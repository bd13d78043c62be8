@testable import Lookahead

struct Row: Identifiable, Hashable, Sendable {
    let id: Int
}

/// A server over a fixed list of rows, answering offset and cursor requests.
///
/// Cursors are `s:N` (the page starting at position N) and `e:N` (the page
/// ending just before position N), so a page can name both neighbours.
struct FakePageServer {
    var rows: [Row]
    var reportsTotalCount: Bool

    init(count: Int, reportsTotalCount: Bool = false) {
        rows = (0..<count).map(Row.init(id:))
        self.reportsTotalCount = reportsTotalCount
    }

    func page(for request: PageRequest) -> Page<Row> {
        let start: Int
        switch request.key {
        case .offset(let offset):
            start = offset
        case .cursor(nil):
            start = 0
        case .cursor(let cursor?):
            let value = Int(cursor.dropFirst(2))!
            start = cursor.hasPrefix("s:") ? value : max(0, value - request.limit)
        }
        let end: Int
        if case .cursor(let cursor?) = request.key, cursor.hasPrefix("e:") {
            end = Int(cursor.dropFirst(2))!
        } else {
            end = min(rows.count, start + request.limit)
        }
        let lower = min(start, rows.count)
        let upper = max(lower, min(end, rows.count))
        return Page(
            items: Array(rows[lower..<upper]),
            nextCursor: upper < rows.count ? "s:\(upper)" : nil,
            previousCursor: lower > 0 ? "e:\(lower)" : nil,
            totalCount: reportsTotalCount ? rows.count : nil
        )
    }
}

extension PagingStateMachine.Action {
    var loadedRequest: PageRequest? {
        if case .load(let request) = self { return request }
        return nil
    }
}
