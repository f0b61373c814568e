#pragma once

#include <QString>

// Scores how well a typed query matches a text: the query's characters must
// appear in order (case-insensitive); runs of adjacent matches and matches at
// the start of words score higher, skipped characters cost a little.
// Returns -1 when the query is not a subsequence of the text.
int fuzzyScore(const QString &query, const QString &text);
