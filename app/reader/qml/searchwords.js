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
