#pragma once

// A museum exhibit: a real artifact (text, a table, code, a figure) with
// notes pinned in the margin to its parts, every figure in it badged. An
// exhibit is data in the folder of the chapter that owns it
// (chapters/NN-slug/exhibits/M1/):
//
//   artifact.md       the artifact, Markdown with live numbers
//                     (LIVE-NUMBERS.md); each heading starts a part
//   annotations.json  {"title", "lead", "links": ["EX06", ...],
//                      "notes": [{"anchor": a part's heading id,
//                                 "mark": text the part holds (optional),
//                                 "text": one paragraph, Markdown with live numbers}]}
//   figures.json      {"charts": [{"title", "figure": "ridge dtype=bf16 : value",
//                                  "note", "kind", "anchor"}]}: live numbers
//                     drawn as small charts, one bar per chip of the
//                     simulator's table, or as a timeline in a part
//
// One viewer in the reader draws every exhibit.

#include <chapters/chapterdocument.h>

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace course {

struct ExhibitNote
{
    QString anchor;
    QString mark;
    int block = -1;       // the note's paragraph in Exhibit::notes
    int markedBlock = -1; // the artifact's block where `mark` first stands
};

// The blocks [first, last) of the artifact under one heading (the blocks
// before the first heading form a part with an empty anchor).
struct ExhibitPart
{
    QString anchor;
    QString title;
    int first = 0;
    int last = 0;
    QList<int> notes; // indexes into Exhibit::pins
};

struct ExhibitChart
{
    QString title;
    QString figure; // a live number's inside, without a chip: the chart asks every chip
    QString note;
    // "bars" (the default): the figure on every chip. "timeline": a
    // collective_matmul figure drawn as its two schedules on the course's
    // chip, gather-then-multiply above the chunked steps. "kernels": the
    // HLO file of the folder that `figure` names, its kernels costed on the
    // course's chip as EX·05 costs them.
    QString kind;
    QString anchor; // the part it is drawn in; empty: with the charts above the artifact
};

struct Exhibit
{
    QString title;
    QString lead;
    QStringList links;
    ChapterDocument artifact;
    ChapterDocument notes;
    QList<ExhibitNote> pins;
    QList<ExhibitPart> parts;
    QList<ExhibitChart> charts;
    QStringList problems; // one sentence each: malformed files, anchors or marks not in the artifact
};

Exhibit parseExhibit(const QString &artifact, const QByteArray &annotations, const QByteArray &figures);

// A block's words without markup, for finding a note's mark in its part.
QString blockPlainText(const DocBlock &block);

} // namespace course
