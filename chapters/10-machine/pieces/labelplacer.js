// Places each op's label beside its dot where it collides with nothing:
// not another label, not a dot, not the roofs nor the ridge line. Tries the
// eight spots around the dot in a fixed order (right-above first, as a
// reader looks) and keeps the first clear one; when none is clear, the one
// that overlaps least.
.pragma library

function overlapArea(a, b) {
    const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)
    const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y)
    return w > 0 && h > 0 ? w * h : 0
}

// How much of a rectangle a polyline given as y(x) crosses, sampled across it.
function lineCost(rect, yAt) {
    let hits = 0
    const samples = 6
    for (let i = 0; i <= samples; ++i) {
        const y = yAt(rect.x + rect.w * i / samples)
        if (y >= rect.y - 2 && y <= rect.y + rect.h + 2)
            ++hits
    }
    return hits * rect.h * rect.w / samples
}

// dots: [{x, y, r, w, h}] (centre, radius, label size); lines: [y(x)];
// fixed: rectangles already on the chart; bounds: {x, y, w, h}.
// Returns, per dot, the label's top-left as an offset from the dot's centre.
function place(dots, lines, fixed, bounds, gap) {
    const taken = fixed.slice()
    for (const d of dots)
        taken.push({ x: d.x - d.r, y: d.y - d.r, w: 2 * d.r, h: 2 * d.r })
    const offsets = []
    for (const d of dots) {
        const g = d.r + gap
        const spots = [
            { x: g, y: -d.h - gap / 2 }, { x: g, y: gap / 2 },
            { x: -g - d.w, y: -d.h - gap / 2 }, { x: -g - d.w, y: gap / 2 },
            { x: g, y: -d.h / 2 }, { x: -g - d.w, y: -d.h / 2 },
            { x: -d.w / 2, y: -g - d.h }, { x: -d.w / 2, y: g }
        ]
        let best = null
        for (const s of spots) {
            const rect = { x: d.x + s.x, y: d.y + s.y, w: d.w, h: d.h }
            let cost = 0
            for (const t of taken)
                cost += overlapArea(rect, t)
            for (const yAt of lines)
                cost += lineCost(rect, yAt)
            // Outside the plot counts as badly as covering something.
            cost += d.w * d.h - overlapArea(rect, bounds)
            if (best === null || cost < best.cost)
                best = { cost: cost, spot: s, rect: rect }
            if (cost === 0)
                break
        }
        taken.push(best.rect)
        offsets.push(best.spot)
    }
    return offsets
}
