.pragma library
// What a search's words mean on a page: the words worth finding and
// marking (three letters or more, not the few that fill every sentence),
// and the phrase they make when typed together.

const common = new Set(["and", "the", "for", "with", "that", "this", "from", "are", "was", "not", "but",
                        "its", "into", "than", "then", "you", "your", "can", "has", "have", "all", "one"])

// The words to find and mark, in lower case. When every word typed is a
// common one, they are kept, and so are words of one or two letters when
// nothing longer was typed ("K", "2x"): the learner asked for them.
function terms(text) {
    const all = text.toLowerCase().split(/\s+/).filter(w => w.length > 0)
    const typed = all.filter(w => w.length >= 3)
    const rare = typed.filter(w => !common.has(w))
    return rare.length > 0 ? rare : typed.length > 0 ? typed : all
}

function escaped(word) {
    return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}

// The typed words as one phrase (any run of spaces between them), or null
// for a single word.
function phrase(text) {
    const words = text.trim().split(/\s+/).filter(w => w.length > 0)
    return words.length >= 2 ? new RegExp("(" + words.map(escaped).join("\\s+") + ")", "gi") : null
}

// Marks `text`'s search in the HTML parts with `span` ("$1" the match):
// the whole phrase where the parts hold it, else each word apart. Never
// inside a tag or an entity.
function mark(parts, text, span) {
    const words = terms(text)
    if (words.length === 0)
        return parts
    const pieces = parts.map(h => h.split(/(<[^>]*>|&[#a-zA-Z0-9]+;)/))
    const isWords = s => !s.startsWith("<") && !s.startsWith("&")
    const whole = phrase(text)
    const rx = whole && pieces.some(p => p.some(s => isWords(s) && s.search(whole) >= 0))
        ? whole : new RegExp("(" + words.map(escaped).join("|") + ")", "gi")
    return pieces.map(p => p.map(s => isWords(s) ? s.replace(rx, span) : s).join(""))
}

// The character an entity stands for, as a note's words are typed.
function decoded(name) {
    const named = { "lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'", "nbsp": " " }
    if (named[name] !== undefined)
        return named[name]
    if (name.startsWith("#x") || name.startsWith("#X"))
        return String.fromCodePoint(parseInt(name.slice(2), 16))
    if (name.startsWith("#"))
        return String.fromCodePoint(parseInt(name.slice(1), 10))
    return "&" + name + ";"
}

// What the reader sets between characters and a reader never types: the
// non-joiner that keeps inline code from ligatures, the word joiner that
// keeps a line from breaking after a slash, a zero-width space.
const invisible = new Set(["\u200c", "\u2060", "\u200b"])

// Marks the first place where `text` stands, exactly as read, in the HTML
// parts: each stretch of it that no tag interrupts is put between `open`
// and `close`. Entities are read as their characters, and the invisible
// joiners above are passed over.
function pin(parts, text, open, close) {
    for (let k = 0; k < parts.length; ++k) {
        const h = parts[k]
        let plain = ""
        const from = [], to = []      // each read character's place in the HTML
        for (let i = 0; i < h.length;) {
            if (h[i] === "<") {
                const end = h.indexOf(">", i)
                i = end < 0 ? h.length : end + 1
                continue
            }
            let ch = h[i], length = 1
            if (ch === "&") {
                const entity = /^&(#[xX]?[0-9a-fA-F]+|[a-zA-Z]+);/.exec(h.slice(i, i + 12))
                if (entity) { ch = decoded(entity[1]); length = entity[0].length }
            }
            if (invisible.has(ch)) { i += length; continue }
            plain += ch
            from.push(i)
            to.push(i + length)
            i += length
        }
        const at = plain.indexOf(text)
        if (at < 0 || text.length === 0)
            continue
        let out = "", copied = 0, start = -1
        for (let c = at; c < at + text.length; ++c) {
            if (start < 0)
                start = from[c]
            if (c === at + text.length - 1 || from[c + 1] !== to[c]) {
                out += h.slice(copied, start) + open + h.slice(start, to[c]) + close
                copied = to[c]
                start = -1
            }
        }
        const marked = parts.slice()
        marked[k] = out + h.slice(copied)
        return marked
    }
    return parts
}
