// Torture tools: seeded random operation mixes over the real engine and the
// disk cache, checked against reference models, so that reliability is a
// figure (`lookahead torture fetcher`, `lookahead torture disk`).
//
// Each tool lives in its own folder: `Fetcher/` and `Disk/`.
